import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { IMPORT_JSON_LIMIT_BYTES, LEDGER_IMPORT_MAX_ROWS, type Actor, type LedgerImport } from "@hearth/contracts";
import { contextOf, expectAppError, financeAs, newActor, settled, startFinance, type RunningFinance } from "./support";

let finance: RunningFinance;

beforeAll(async () => {
  finance = await startFinance({ ledgerImport: true });
});
afterAll(async () => finance?.stop());

const importAs = (actor: Actor | null, input: Partial<LedgerImport>) =>
  finance.call("ledger.import", "mutation", { entries: [], entry_tags: [], transfers: [], ...input }, contextOf(actor));

const purchase = (accountId: string, over: Record<string, unknown> = {}) => ({
  id: randomUUID(),
  account_id: accountId,
  kind: "transaction" as const,
  transaction_kind: "standard" as const,
  date: "2026-03-01",
  name: "Bakery",
  amount_cents: "1250",
  currency: "USD",
  category_id: null,
  merchant_id: null,
  ...over,
});

async function familyWithAccounts() {
  const actor = newActor();
  const call = financeAs(finance, actor);
  const checking = await call("accounts.create", {
    account: { name: "Checking", account_type: "depository", balance: "100", opening_balance_date: "2026-01-01" },
  });
  const savings = await call("accounts.create", { account: { name: "Savings", account_type: "depository", opening_balance_date: "2026-01-01" } });
  const tag = await call("tags.create", { tag: { name: "Trip" } });
  return { actor, call, checking, savings, tag };
}

describe("ledger.import (internal bulk history for the seeder and benchmarks)", () => {
  it("writes entries, tags and confirmed transfers of the signed actor's family, which a sync turns into balances", async () => {
    const { actor, call, checking, savings, tag } = await familyWithAccounts();
    const bread = purchase(checking.id, { name: "Bread" });
    const out = purchase(checking.id, { name: "To savings", amount_cents: "5000", transaction_kind: "funds_movement" });
    const into = purchase(savings.id, { name: "From checking", amount_cents: "-5000", transaction_kind: "funds_movement" });
    const valuation = {
      id: randomUUID(),
      account_id: savings.id,
      kind: "valuation",
      valuation_kind: "reconciliation",
      date: "2026-02-01",
      name: "Statement",
      amount_cents: "0",
      currency: "USD",
    };
    const written = await importAs(actor, {
      entries: [bread, out, into, valuation as never],
      entry_tags: [{ entry_id: bread.id, tag_id: tag.id }],
      transfers: [{ id: randomUUID(), outflow_entry_id: out.id, inflow_entry_id: into.id }],
      finish: true,
    });
    expect(written).toEqual({ entries: 4, entry_tags: 1, transfers: 1 });

    const listed = await call("transactions.list", { account_id: checking.id });
    expect(listed.pagination.total_count).toBe(2);
    expect(listed.transactions.find((t: { name: string }) => t.name === "Bread").tags).toEqual([expect.objectContaining({ id: tag.id })]);
    expect((await call("transfers.list", {})).transfers).toHaveLength(1);

    await call("syncs.create", {});
    await settled(finance);
    expect((await call("accounts.get", { id: checking.id })).balance_cents).toBe(10000 - 1250 - 5000);
    expect((await call("accounts.get", { id: savings.id })).balance_cents).toBe(5000);
  });

  it("refuses the whole call, writing nothing, when any id is not the family's own", async () => {
    const { actor, checking, tag } = await familyWithAccounts();
    const other = await familyWithAccounts();
    const before = await finance.db.entry.count();
    const error = await expectAppError(importAs(actor, { entries: [purchase(checking.id), purchase(other.checking.id)] }), "validation_failed");
    expect(error.message).toBe("Account not found");
    const mine = purchase(checking.id);
    await expectAppError(importAs(actor, { entries: [mine], entry_tags: [{ entry_id: mine.id, tag_id: other.tag.id }] }), "validation_failed");
    await expectAppError(importAs(actor, { entries: [purchase(checking.id, { category_id: randomUUID() })] }), "validation_failed");
    const theirs = purchase(other.checking.id);
    await importAs(other.actor, { entries: [theirs] });
    await expectAppError(importAs(actor, { entry_tags: [{ entry_id: theirs.id, tag_id: tag.id }] }), "validation_failed");
    expect(await finance.db.entry.count()).toBe(before + 1);
  });

  it("refuses, writing nothing, an entry id that exists or an entry linked twice (422, not 500)", async () => {
    const { actor, checking, savings } = await familyWithAccounts();
    const out = purchase(checking.id, { amount_cents: "700" });
    const into = purchase(savings.id, { amount_cents: "-700" });
    await importAs(actor, { entries: [out, into], transfers: [{ id: randomUUID(), outflow_entry_id: out.id, inflow_entry_id: into.id }] });
    const before = await finance.db.entry.count();
    await expectAppError(importAs(actor, { entries: [purchase(checking.id), { ...out }] }), "validation_failed");
    const again = { id: randomUUID(), outflow_entry_id: out.id, inflow_entry_id: into.id };
    await expectAppError(importAs(actor, { entries: [purchase(checking.id)], transfers: [again] }), "validation_failed");
    expect(await finance.db.entry.count()).toBe(before);
    expect(await finance.db.transfer.count({ where: { outflowEntryId: out.id } })).toBe(1);
  });

  it("takes transfers only as transfers.create makes them: an outflow and an inflow in two accounts, each entry in one transfer", async () => {
    const { actor, checking, savings } = await familyWithAccounts();
    // Unequal amounts, so finance's own matcher (running after the accounts' syncs) proposes no pairing of them.
    const out = purchase(checking.id, { amount_cents: "900" });
    const into = purchase(savings.id, { amount_cents: "-850" });
    const sameAccount = purchase(checking.id, { amount_cents: "-900" });
    const later = purchase(savings.id, { amount_cents: "-800" });
    const valuation = {
      id: randomUUID(),
      account_id: savings.id,
      kind: "valuation",
      valuation_kind: "reconciliation",
      date: "2026-02-10",
      name: "Statement",
      amount_cents: "100",
      currency: "USD",
    };
    await importAs(actor, { entries: [out, into, sameAccount, later, valuation as never] });
    const link = (outflow: string, inflow: string) => ({ id: randomUUID(), outflow_entry_id: outflow, inflow_entry_id: inflow });
    const refused = [
      [link(out.id, out.id)], // itself
      [link(into.id, out.id)], // sides reversed: a negative outflow would break every transfer resource
      [link(out.id, sameAccount.id)], // one account
      [link(out.id, valuation.id)], // a valuation is no side of a transfer
      [link(out.id, into.id), link(into.id, sameAccount.id)], // one entry in two transfers
    ];
    for (const transfers of refused) await expectAppError(importAs(actor, { transfers }), "validation_failed");
    expect(await finance.db.transfer.count({ where: { familyId: actor.familyId } })).toBe(0);
    await importAs(actor, { transfers: [link(out.id, into.id)] });
    const twice = await expectAppError(importAs(actor, { transfers: [link(out.id, later.id)] }), "validation_failed");
    expect(twice.message).toBe("An entry can be part of one transfer only");
    const listed = await financeAs(finance, actor)("transfers.list", {});
    expect(listed.transfers).toHaveLength(1);
  });

  it("keeps one valuation per account and day, and counts only the tags it stored", async () => {
    const { actor, savings, tag } = await familyWithAccounts();
    const valuation = (date: string) => ({
      id: randomUUID(),
      account_id: savings.id,
      kind: "valuation" as const,
      valuation_kind: "reconciliation" as const,
      date,
      name: "Statement",
      amount_cents: "100",
      currency: "USD",
    });
    await expectAppError(importAs(actor, { entries: [valuation("2026-03-01"), valuation("2026-03-01")] }), "validation_failed");
    // The account's opening balance is a valuation on 2026-01-01.
    await expectAppError(importAs(actor, { entries: [valuation("2026-01-01")] }), "validation_failed");
    const bread = purchase(savings.id);
    const written = await importAs(actor, {
      entries: [bread],
      entry_tags: [
        { entry_id: bread.id, tag_id: tag.id },
        { entry_id: bread.id, tag_id: tag.id },
      ],
    });
    expect(written).toEqual({ entries: 1, entry_tags: 1, transfers: 0 });
  });

  it("answers a body over the service's limit with 413 payload_too_large, not a 500", async () => {
    const { actor, checking } = await familyWithAccounts();
    // finance takes bodies up to the imports' limit (a 10 MB file escaped as JSON); one byte more is refused.
    const oversized = { entries: [purchase(checking.id)], padding: "x".repeat(IMPORT_JSON_LIMIT_BYTES) };
    await expectAppError(importAs(actor, oversized as never), "payload_too_large");
  });

  it("is off unless the service was started for developer tools (LEDGER_IMPORT=on)", async () => {
    const production = await startFinance();
    try {
      const { actor } = { actor: newActor() };
      const error = await expectAppError(
        production.call("ledger.import", "mutation", { entries: [], entry_tags: [], transfers: [] }, contextOf(actor)),
        "forbidden",
      );
      expect(error.message).toContain("LEDGER_IMPORT=on");
    } finally {
      await production.stop();
    }
  });

  it("needs an acting user with the read_write scope, and caps every list", async () => {
    const { actor, checking } = await familyWithAccounts();
    await expectAppError(importAs(null, { entries: [purchase(checking.id)] }), "unauthorized");
    await expectAppError(importAs({ ...actor, scopes: ["read"] }, { entries: [purchase(checking.id)] }), "insufficient_scope");
    const tooMany = Array.from({ length: LEDGER_IMPORT_MAX_ROWS + 1 }, () => purchase(checking.id));
    await expectAppError(importAs(actor, { entries: tooMany }), "validation_failed");
    await expectAppError(importAs(actor, { entries: [purchase(checking.id, { amount_cents: "10000000000001" })] }), "validation_failed");
    await expectAppError(importAs(actor, { entries: [purchase(checking.id, { date: "0202-01-01" })] }), "validation_failed");
  });
});
