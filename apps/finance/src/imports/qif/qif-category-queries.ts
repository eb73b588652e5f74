import type { FinanceTx } from "../../db";

/** The import's distinct "Parent:Child" categories, as rows name them: parent and child, sorted. */
export function parentChildPairs(tx: FinanceTx, importId: string) {
  return tx.$queryRaw<{ parent: string; child: string }[]>`
    SELECT DISTINCT r.values->>'category_parent' AS parent, r.values->>'category' AS child
      FROM import_rows r
     WHERE r.import_id = ${importId}::uuid AND r.values->>'category_parent' IS NOT NULL AND r.values->>'category' <> ''
     ORDER BY 1, 2`;
}

/** The family's categories of these names, with what a child made under one takes from it. */
export function categoriesNamed(tx: FinanceTx, familyId: string, names: string[]) {
  return tx.category.findMany({
    where: { familyId, name: { in: names } },
    select: { id: true, name: true, color: true, classification: true, parentId: true },
  });
}
