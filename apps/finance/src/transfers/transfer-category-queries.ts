import type { FinanceTx } from "../db";

/** A category a transfer files its transactions under, made on first use as Sure's find_or_create_by! does. */
export interface TransferCategory {
  name: string;
  color: string;
  icon: string;
}

/** Sure's Transfer::Creator files fees under the family's "Fees" category (its default set has one). */
export const FEES_CATEGORY: TransferCategory = { name: "Fees", color: "#737373", icon: "receipt" };

/** Sure's Family#investment_contributions_category: colour #0d9488, icon trending-up. */
export const INVESTMENT_CONTRIBUTIONS_CATEGORY: TransferCategory = { name: "Investment Contributions", color: "#0d9488", icon: "trending-up" };

/** The family's category of that name (an expense category), made if missing; safe against a concurrent maker. */
export async function familyCategoryNamed(tx: FinanceTx, familyId: string, category: TransferCategory): Promise<string> {
  await tx.$executeRaw`
    INSERT INTO categories (id, family_id, name, color, icon, classification, created_at, updated_at)
    VALUES (gen_random_uuid(), ${familyId}::uuid, ${category.name}, ${category.color}, ${category.icon}, 'expense', now(), now())
    ON CONFLICT (family_id, name) DO NOTHING`;
  const row = await tx.category.findUniqueOrThrow({ where: { familyId_name: { familyId, name: category.name } }, select: { id: true } });
  return row.id;
}
