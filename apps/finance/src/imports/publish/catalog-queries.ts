import type { FinanceTx } from "../../db";
import type { Prisma } from "../../generated/prisma/client";

// Categories, tags and merchants are unique by name per family: a name taken already (by the
// family, or by another request meanwhile) is skipped, and each answers how many it made.

export async function createCategories(tx: FinanceTx, categories: Prisma.CategoryCreateManyInput[]): Promise<number> {
  return (await tx.category.createMany({ data: categories, skipDuplicates: true })).count;
}

export async function createTags(tx: FinanceTx, tags: Prisma.TagCreateManyInput[]): Promise<number> {
  return (await tx.tag.createMany({ data: tags, skipDuplicates: true })).count;
}

export async function createMerchants(tx: FinanceTx, merchants: Prisma.MerchantCreateManyInput[]): Promise<number> {
  return (await tx.merchant.createMany({ data: merchants, skipDuplicates: true })).count;
}

/** The names among `names` that the family's merchants have. */
export async function merchantNamesTaken(tx: FinanceTx, familyId: string, names: string[]): Promise<string[]> {
  const existing = await tx.merchant.findMany({ where: { familyId, name: { in: names } }, select: { name: true } });
  return existing.map((merchant) => merchant.name);
}
