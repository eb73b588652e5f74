import { randomUUID } from "node:crypto";
import { LEDGER_IMPORT_MAX_ROWS, type Actor } from "@hearth/contracts";
import { createServiceClient } from "@hearth/service-kit";
import type { SeedLedger } from "./seed-ledger";

/** Where finance listens and the secret its callers sign with (`npm start` keeps it in its data dir). */
export interface FinanceAccess {
  url: string;
  internalAuthSecret: string;
}

/**
 * Writes a generated ledger for `actor`'s family through finance's internal `ledger.import`, in
 * calls of at most LEDGER_IMPORT_MAX_ROWS rows: entries first, then the tags and transfers
 * that name them. The family is the signed actor's; balances follow from a sync afterwards.
 */
export async function writeLedger(finance: FinanceAccess, actor: Actor, ledger: SeedLedger, onProgress?: (written: number) => void): Promise<void> {
  const call = createServiceClient({ service: "finance", url: finance.url, caller: "demo-seed", internalAuthSecret: finance.internalAuthSecret });
  const send = (rows: Partial<SeedLedger>, finish = false) =>
    call("ledger.import", "mutation", { entries: [], entry_tags: [], transfers: [], ...rows, finish }, { requestId: `demo-seed-${randomUUID()}`, actor });
  for (let start = 0; start < ledger.entries.length; start += LEDGER_IMPORT_MAX_ROWS) {
    await send({ entries: ledger.entries.slice(start, start + LEDGER_IMPORT_MAX_ROWS) });
    const written = Math.min(start + LEDGER_IMPORT_MAX_ROWS, ledger.entries.length);
    onProgress?.(written);
  }
  for (let start = 0; start < ledger.entry_tags.length; start += LEDGER_IMPORT_MAX_ROWS) {
    await send({ entry_tags: ledger.entry_tags.slice(start, start + LEDGER_IMPORT_MAX_ROWS) });
  }
  for (let start = 0; start < ledger.transfers.length; start += LEDGER_IMPORT_MAX_ROWS) {
    await send({ transfers: ledger.transfers.slice(start, start + LEDGER_IMPORT_MAX_ROWS) });
  }
  await send({}, true);
}
