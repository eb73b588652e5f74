import { DEFAULT_CATEGORY_COLOR, suggestIcon } from "../../categories/default-categories";
import type { FinanceTx } from "../../db";
import { publishTransactionImport, type PublishOutcome, type PublishTarget } from "../publish/transaction-import-publisher";

/**
 * Publishes a QifImport: first each "Parent:Child" category of its rows as Sure's
 * CategoryMapping#create_mappable! makes it (the parent found or made top-level, the child found
 * or made under it, with its colour and classification), then the rows as a TransactionImport,
 * which files each row under the child by name. A child the family already has stays where it
 * is; under a parent that is itself a subcategory the child is made top-level (categories nest
 * one level deep), where Sure would fail the import.
 */
export async function publishQifImport(tx: FinanceTx, target: PublishTarget, onProgress: (rowsDone: number) => Promise<void>): Promise<PublishOutcome> {
  const { familyId } = target;
  const pairs = await tx.$queryRaw<{ parent: string; child: string }[]>`
    SELECT DISTINCT r.values->>'category_parent' AS parent, r.values->>'category' AS child
      FROM import_rows r
     WHERE r.import_id = ${target.id}::uuid AND r.values->>'category_parent' IS NOT NULL AND r.values->>'category' <> ''
     ORDER BY 1, 2`;
  if (pairs.length > 0) {
    const parentNames = [...new Set(pairs.map((pair) => pair.parent))];
    await tx.category.createMany({
      data: parentNames.map((name) => ({ familyId, name, color: DEFAULT_CATEGORY_COLOR, icon: suggestIcon(name), importId: target.id })),
      skipDuplicates: true,
    });
    const parents = await tx.category.findMany({
      where: { familyId, name: { in: parentNames } },
      select: { id: true, name: true, color: true, classification: true, parentId: true },
    });
    const parentNamed = new Map(parents.map((parent) => [parent.name, parent]));
    await tx.category.createMany({
      data: pairs.flatMap(({ parent, child }) => {
        const found = parentNamed.get(parent);
        if (!found) return [];
        const parentId = found.parentId === null ? found.id : null;
        return [{ familyId, name: child, color: found.color, icon: suggestIcon(child), classification: found.classification, parentId, importId: target.id }];
      }),
      skipDuplicates: true,
    });
  }
  return publishTransactionImport(tx, target, onProgress);
}
