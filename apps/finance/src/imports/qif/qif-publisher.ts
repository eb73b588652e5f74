import { DEFAULT_CATEGORY_COLOR, suggestIcon } from "../../categories/default-categories";
import type { FinanceTx } from "../../db";
import { createCategories } from "../publish/catalog-queries";
import { publishTransactionImport, type PublishOutcome, type PublishTarget } from "../publish/transaction-import-publisher";
import { categoriesNamed, parentChildPairs } from "./qif-category-queries";
import { stagedCountsByAccount } from "./qif-section-queries";

/**
 * Publishes a QifImport: first each "Parent:Child" category of its rows as Sure's
 * CategoryMapping#create_mappable! makes it (the parent found or made top-level, the child found
 * or made under it, with its colour and classification), then the rows as a TransactionImport,
 * which files each row under the child by name. A child the family already has stays where it
 * is; under a parent that is itself a subcategory the child is made top-level (categories nest
 * one level deep), where Sure would fail the import. A file of several accounts' sections
 * (no account_id) adds each one's counts to the result.
 */
export async function publishQifImport(
  tx: FinanceTx,
  target: PublishTarget,
  onProgress: (rowsDone: number) => Promise<void>,
): Promise<PublishOutcome & Record<string, number>> {
  const { familyId } = target;
  const pairs = await parentChildPairs(tx, target.id);
  if (pairs.length > 0) {
    const parentNames = [...new Set(pairs.map((pair) => pair.parent))];
    await createCategories(
      tx,
      parentNames.map((name) => ({ familyId, name, color: DEFAULT_CATEGORY_COLOR, icon: suggestIcon(name), importId: target.id })),
    );
    const parents = await categoriesNamed(tx, familyId, parentNames);
    const parentNamed = new Map(parents.map((parent) => [parent.name, parent]));
    await createCategories(
      tx,
      pairs.flatMap(({ parent, child }) => {
        const found = parentNamed.get(parent);
        if (!found) return [];
        const parentId = found.parentId === null ? found.id : null;
        return [{ familyId, name: child, color: found.color, icon: suggestIcon(child), classification: found.classification, parentId, importId: target.id }];
      }),
    );
  }
  const outcome = await publishTransactionImport(tx, target, onProgress);
  if (target.accountId !== null) return { ...outcome };
  // A file of several accounts says what each account's section gave ("transactions:Checking").
  const sections = await stagedCountsByAccount(tx);
  return {
    ...outcome,
    ...Object.fromEntries(
      sections.flatMap(({ name, written, skipped }) => [
        [`transactions:${name}`.slice(0, 255), written],
        [`skipped_duplicates:${name}`.slice(0, 255), skipped],
      ]),
    ),
  };
}
