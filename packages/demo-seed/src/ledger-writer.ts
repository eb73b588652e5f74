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
 * Cuts a ledger into calls of at most LEDGER_IMPORT_MAX_ROWS entries, each carrying the tags and
 * transfers of its own entries: every call commits whole, so no transfer's side is ever visible
 * unlinked (finance's matcher, running meanwhile, would propose its own pairing of it).
 */
export function importCalls(ledger: SeedLedger): SeedLedger[] {
  const transferOf = new Map(ledger.transfers.flatMap((t) => [[t.outflow_entry_id, t] as const, [t.inflow_entry_id, t] as const]));
  const tagsOf = new Map<string, SeedLedger["entry_tags"]>();
  for (const tag of ledger.entry_tags) tagsOf.set(tag.entry_id, [...(tagsOf.get(tag.entry_id) ?? []), tag]);
  const byId = new Map(ledger.entries.map((entry) => [entry.id, entry]));
  const calls: SeedLedger[] = [];
  let call: SeedLedger = { entries: [], entry_tags: [], transfers: [] };
  const placed = new Set<string>();
  for (const entry of ledger.entries) {
    if (placed.has(entry.id)) continue;
    const transfer = transferOf.get(entry.id);
    const unit = transfer ? [byId.get(transfer.outflow_entry_id)!, byId.get(transfer.inflow_entry_id)!] : [entry];
    if (call.entries.length + unit.length > LEDGER_IMPORT_MAX_ROWS) {
      calls.push(call);
      call = { entries: [], entry_tags: [], transfers: [] };
    }
    for (const member of unit) {
      call.entries.push(member);
      call.entry_tags.push(...(tagsOf.get(member.id) ?? []));
      placed.add(member.id);
    }
    if (transfer) call.transfers.push(transfer);
  }
  if (call.entries.length > 0) calls.push(call);
  return calls;
}

/**
 * Writes a generated ledger for `actor`'s family through finance's internal `ledger.import`. The
 * family is the signed actor's; balances follow from a sync afterwards.
 */
export async function writeLedger(finance: FinanceAccess, actor: Actor, ledger: SeedLedger, onProgress?: (written: number) => void): Promise<void> {
  const call = createServiceClient({ service: "finance", url: finance.url, caller: "demo-seed", internalAuthSecret: finance.internalAuthSecret });
  const send = (rows: SeedLedger, finish: boolean) => call("ledger.import", "mutation", { ...rows, finish }, { requestId: `demo-seed-${randomUUID()}`, actor });
  const calls = importCalls(ledger);
  let written = 0;
  for (const [i, rows] of calls.entries()) {
    await send(rows, i === calls.length - 1);
    written += rows.entries.length;
    onProgress?.(written);
  }
}
