import type { FinanceTx } from "../../db";
import { planImport } from "../../merchants/merchant-import";
import type { MerchantRowValues } from "../parsing/row-types";
import { createMerchants, merchantNamesTaken } from "./catalog-queries";
import { importRowValues } from "./import-row-queries";
import type { PublishTarget } from "./transaction-import-publisher";

export interface MerchantPublishOutcome {
  merchants_created: number;
  /** Rows whose name the family already had, or an earlier row had: left as they are. */
  merchants_skipped: number;
}

/**
 * Publishes a MerchantImport as Sure's MerchantImport#import! does, inside the caller's
 * transaction: a name the family has is left as it is (Sure updates no merchant), a new one is
 * made with the row's colour, each name once. The plan is the merchants' own CSV upload's
 * (planImport), with the row's website_url (as Sure sets it); a merchant without a colour has
 * none, as merchants.create makes it.
 */
export async function publishMerchantImport(
  tx: FinanceTx,
  target: PublishTarget,
  onProgress: (rowsDone: number) => Promise<void>,
): Promise<MerchantPublishOutcome> {
  const { familyId } = target;
  const rows = await importRowValues(tx, target.id);
  const values = rows.flatMap((row) => (row.values === null ? [] : [row.values as unknown as MerchantRowValues]));
  const names = [...new Set(values.map((row) => row.name))];
  const taken = new Set(await merchantNamesTaken(tx, familyId, names));
  const plan = planImport(
    values.map((row) => ({
      name: row.name,
      ...(row.color !== null ? { color: row.color } : {}),
      ...(row.website_url !== null ? { website_url: row.website_url } : {}),
    })),
    taken,
  );
  // A name another request took meanwhile is left out: skipped too.
  const count = await createMerchants(
    tx,
    plan.create.map(({ website_url, ...merchant }) => ({ familyId, ...merchant, websiteUrl: website_url, importId: target.id })),
  );
  await onProgress(rows.length);
  return { merchants_created: count, merchants_skipped: plan.skipped + plan.create.length - count };
}
