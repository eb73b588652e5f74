import type { FinanceTx } from "../../db";
import type { CategoryFields } from "./category-import-publisher";

/** Every category of the family, with its parent's name. */
export function familyCategoriesWithParents(tx: FinanceTx, familyId: string) {
  return tx.category.findMany({
    where: { familyId },
    select: { name: true, color: true, icon: true, classification: true, parent: { select: { name: true } } },
  });
}

/** Sets the family's categories of these names to these fields, each under the parent of its name (none when the family has none of it). */
export async function updateCategories(tx: FinanceTx, familyId: string, writes: readonly (readonly [name: string, fields: CategoryFields])[]): Promise<void> {
  await tx.$executeRaw`
    UPDATE categories c
       SET color = u.color, icon = u.icon, classification = u.classification::"CategoryClassification", parent_id = p.id, updated_at = now()
      FROM unnest(${writes.map(([name]) => name)}::text[], ${writes.map(([, f]) => f.color)}::text[], ${writes.map(([, f]) => f.icon)}::text[],
                  ${writes.map(([, f]) => f.classification)}::text[], ${writes.map(([, f]) => f.parent)}::text[]) AS u(name, color, icon, classification, parent)
      LEFT JOIN categories p ON p.family_id = ${familyId}::uuid AND p.name = u.parent
     WHERE c.family_id = ${familyId}::uuid AND c.name = u.name`;
}
