import { randomUUID } from "node:crypto";
import { LEDGER_IMPORT_MAX_ROWS, LedgerImportSchema } from "@hearth/contracts";
import { describe, expect, it } from "vitest";
import { generateDemoLedger } from "../src/demo-ledger";
import { importCalls } from "../src/ledger-writer";
import type { SeedAccount } from "../src/seed-ledger";

const account = (type: SeedAccount["type"]): SeedAccount => ({ id: randomUUID(), type, currency: "USD" });
const plan = (purchases: number) => ({
  accounts: {
    checking: account("depository"),
    savings: account("depository"),
    card: account("credit_card"),
    brokerage: account("investment"),
    house: account("property"),
    car: account("vehicle"),
    mortgage: account("loan"),
  },
  expenseCategories: { Groceries: randomUUID(), Utilities: randomUUID() },
  incomeCategory: randomUUID(),
  merchants: [{ id: randomUUID(), name: "FreshMart", category: "Groceries" }],
  tagIds: [randomUUID(), randomUUID()],
  from: "2024-01-01",
  to: "2025-12-31",
  purchases,
});

describe("importCalls", () => {
  it("sends every entry, tag and transfer once, in calls the contract accepts, each transfer with both its sides", () => {
    const ledger = generateDemoLedger(plan(5_000));
    expect(ledger.transfers.length).toBeGreaterThan(50);
    const calls = importCalls(ledger);
    expect(calls.length).toBeGreaterThan(1);
    for (const call of calls) {
      expect(LedgerImportSchema.safeParse(call).success).toBe(true);
      expect(call.entries.length).toBeLessThanOrEqual(LEDGER_IMPORT_MAX_ROWS);
      const ids = new Set(call.entries.map((e) => e.id));
      for (const t of call.transfers) expect(ids.has(t.outflow_entry_id) && ids.has(t.inflow_entry_id)).toBe(true);
      for (const tag of call.entry_tags) expect(ids.has(tag.entry_id)).toBe(true);
    }
    const sent = calls.flatMap((c) => c.entries.map((e) => e.id));
    expect(sent.toSorted()).toEqual(ledger.entries.map((e) => e.id).toSorted());
    expect(calls.flatMap((c) => c.transfers)).toHaveLength(ledger.transfers.length);
    expect(calls.flatMap((c) => c.entry_tags)).toHaveLength(ledger.entry_tags.length);
  });

  it("never splits a transfer at a call boundary, even when the pair straddles it", () => {
    const ledger = generateDemoLedger(plan(100));
    const pair = ledger.transfers[0]!;
    // Put one plain entry fewer than a full call before the pair, so it would straddle a naive cut.
    const others = ledger.entries.filter((e) => e.id !== pair.outflow_entry_id && e.id !== pair.inflow_entry_id);
    const filler = Array.from({ length: LEDGER_IMPORT_MAX_ROWS - 1 }, () => ({ ...others[0]!, id: randomUUID() }));
    const sides = ledger.entries.filter((e) => e.id === pair.outflow_entry_id || e.id === pair.inflow_entry_id);
    const calls = importCalls({ entries: [...filler, ...sides], entry_tags: [], transfers: [pair] });
    expect(calls.map((c) => c.entries.length)).toEqual([LEDGER_IMPORT_MAX_ROWS - 1, 2]);
    expect(calls[1]!.transfers).toEqual([pair]);
  });
});
