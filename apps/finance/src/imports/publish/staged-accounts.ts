import type { FinanceTx } from "../../db";
import { PublishError } from "./publish-error";
import {
  createMappedAccounts,
  liveAccountId,
  stageAccountsByName,
  stageMappedAccounts,
  stageOneAccount,
  unknownStagedAccountNames,
  type AccountStage,
} from "./staged-account-queries";
import type { PublishTarget } from "./transaction-import-publisher";

/**
 * Fills `account_id` of a publisher's staging table (a temp table with `account_name`): the
 * import's account, checked again (it may have been deleted since the upload), else each row's
 * account by name (the oldest of a name, as the list shows it first). Throws PublishError naming
 * up to ten names no account of the family has.
 */
export async function resolveStagedAccounts(tx: FinanceTx, stage: AccountStage, target: PublishTarget): Promise<void> {
  const { familyId } = target;
  if (target.accountId) {
    if ((await liveAccountId(tx, familyId, target.accountId)) === null) throw new PublishError("The import's account no longer exists");
    await stageOneAccount(tx, stage, target.accountId);
    return;
  }
  // The user's mappings first (an account, or a new one), then the family's account of each remaining name.
  // A name mapped to a new account gets one even where an account's name differs from it only in case.
  await stageMappedAccounts(tx, stage, familyId, target.id);
  await createMappedAccounts(tx, stage, familyId, target.id);
  await stageAccountsByName(tx, stage, familyId);
  const unknown = await unknownStagedAccountNames(tx, stage);
  if (unknown.length === 0) return;
  const named = unknown.flatMap((name) => (name === null ? [] : [`"${name}"`]));
  throw new PublishError(
    named.length > 0 ? `No account of the family is named ${named.join(", ")}` : "Rows without an account: give the import an account_id or an account column",
  );
}
