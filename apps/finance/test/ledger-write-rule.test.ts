// The ledger's write rule: every write of a family's entries, or of what its transaction lists
// filter on (entry tags, tags, merchant names), moves the family's ledger version and keeps its
// transaction count equal to a fresh count, in the writing transaction; a write of an account's
// entries also asks for the account's balance sync from the earliest day it changed. The database
// keeps the version and the count (the triggers of migration ledger_write_rule), so raw SQL is
// held to them as much as the procedures are; each write procedure is then checked, syncs too.
import { randomUUID } from "node:crypto";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ImportResponseSchema, RuleRunResponseSchema, type Actor } from "@hearth/contracts";
import { databaseUrlOf } from "@hearth/service-kit";
import { isoDateOf } from "../src/ledger/dates";
import { contextOf, eventually, financeAs, newActor, publishedImport, exportedNdjson, settled, startFinance, type RunningFinance } from "./support";

let finance: RunningFinance;
let sql: pg.Client;

beforeAll(async () => {
  finance = await startFinance({ ledgerImport: true });
  sql = new pg.Client({ connectionString: databaseUrlOf(finance.db) });
  await sql.connect();
});
afterAll(async () => {
  await sql?.end();
  await finance?.stop();
});

type Call = ReturnType<typeof financeAs>;

/** The family's ledger version and kept count, and its transactions counted afresh. */
async function ledgerOf(familyId: string) {
  const [row] = await finance.db.$queryRaw<{ version: bigint | null; transactions: bigint | null; counted: bigint }[]>`
    SELECT v.version, v.transactions, (SELECT count(*) FROM entries WHERE family_id = ${familyId}::uuid AND kind = 'transaction') AS counted
      FROM (SELECT 1) one LEFT JOIN ledger_versions v ON v.family_id = ${familyId}::uuid`;
  return { version: row?.version ?? 0n, transactions: row?.transactions ?? null, counted: row?.counted ?? 0n };
}

/** A family with an account, its transaction count known (its first list counted it). */
async function familyWithAccount(actor: Actor = newActor()) {
  const call = financeAs(finance, actor);
  const account = await call("accounts.create", {
    account: { name: "Checking", account_type: "depository", balance: 100, opening_balance_date: "2026-01-01" },
  });
  await call("transactions.list", {});
  return { actor, familyId: actor.familyId, call, accountId: account.id as string };
}

/** Entries written by raw SQL: one per kind given, in one statement, each of `[familyId, accountId, kind]`. */
async function insertEntries(rows: [string, string, "transaction" | "valuation"][], name = "Raw"): Promise<void> {
  await sql.query(
    `INSERT INTO entries (id, family_id, account_id, kind, date, name, amount_cents, currency, updated_at)
     SELECT gen_random_uuid(), r.family_id, r.account_id, r.kind::"EntryKind", '2026-03-01', $4, 100, 'USD', now()
       FROM unnest($1::uuid[], $2::uuid[], $3::text[]) AS r(family_id, account_id, kind)`,
    [rows.map((row) => row[0]), rows.map((row) => row[1]), rows.map((row) => row[2]), name],
  );
}

/** Expects the family's version moved past `before` and its kept count a fresh count; answers the version. */
async function expectKept(familyId: string, before: bigint, what: string): Promise<bigint> {
  const now = await ledgerOf(familyId);
  expect(now.version, `${what}: the version moved`).toBeGreaterThan(before);
  expect(now.transactions, `${what}: the kept count is a fresh count`).toBe(now.counted);
  return now.version;
}

describe("the database keeps the version and the count, whatever writes", () => {
  it("raw inserts, updates and deletes of entries: each family touched gets a new version and a fresh count, another keeps its version", async () => {
    const a = await familyWithAccount();
    const b = await familyWithAccount();
    const other = await familyWithAccount();
    let [va, vb] = [(await ledgerOf(a.familyId)).version, (await ledgerOf(b.familyId)).version];
    const untouched = (await ledgerOf(other.familyId)).version;

    await insertEntries([
      [a.familyId, a.accountId, "transaction"],
      [a.familyId, a.accountId, "transaction"],
      [a.familyId, a.accountId, "valuation"],
      [b.familyId, b.accountId, "transaction"],
    ]);
    va = await expectKept(a.familyId, va, "an insert");
    vb = await expectKept(b.familyId, vb, "an insert");
    expect((await ledgerOf(a.familyId)).transactions).toBe(2n);

    // A transaction turned valuation leaves the count; a day moved changes no count, yet the version.
    await sql.query(
      `UPDATE entries SET kind = 'valuation' WHERE id = (SELECT min(id::text)::uuid FROM entries WHERE family_id = $1 AND kind = 'transaction')`,
      [a.familyId],
    );
    va = await expectKept(a.familyId, va, "a kind changed");
    expect((await ledgerOf(a.familyId)).transactions).toBe(1n);
    await sql.query(`UPDATE entries SET date = date - 1 WHERE family_id = $1`, [b.familyId]);
    vb = await expectKept(b.familyId, vb, "a day moved");

    await sql.query(`DELETE FROM entries WHERE family_id = ANY($1::uuid[]) AND name = 'Raw'`, [[a.familyId, b.familyId]]);
    await expectKept(a.familyId, va, "a delete");
    await expectKept(b.familyId, vb, "a delete");
    expect([(await ledgerOf(a.familyId)).transactions, (await ledgerOf(b.familyId)).transactions]).toEqual([0n, 0n]);
    expect((await ledgerOf(other.familyId)).version).toBe(untouched);
  });

  it("what the filters read: entry tags, a tag, a category or a merchant deleted, a merchant renamed; an account's cascade counts its transactions out", async () => {
    const f = await familyWithAccount();
    const tag = await f.call("tags.create", { tag: { name: "Trip" } });
    const category = await f.call("categories.create", { category: { name: "Food" } });
    const merchant = await f.call("merchants.create", { merchant: { name: "Bakery" } });
    const { body: txn } = await f.call("transactions.create", {
      transaction: { account_id: f.accountId, date: "2026-02-01", amount: 3, name: "Bread", category_id: category.id, merchant_id: merchant.id },
    });
    let version = (await ledgerOf(f.familyId)).version;
    const tagging = "INSERT INTO entry_tags (entry_id, tag_id) VALUES ($1, $2)";
    const writes: [string, string, unknown[]][] = [
      ["a tagging added", tagging, [txn.id, tag.id]],
      ["a tagging removed", "DELETE FROM entry_tags WHERE entry_id = $1", [txn.id]],
      ["a tagging added again", tagging, [txn.id, tag.id]],
      ["a tag deleted with its taggings", "DELETE FROM tags WHERE id = $1", [tag.id]],
      ["a merchant renamed", "UPDATE merchants SET name = 'Old bakery' WHERE id = $1", [merchant.id]],
      ["a merchant deleted (its transactions lose it)", "DELETE FROM merchants WHERE id = $1", [merchant.id]],
      ["a category deleted (its transactions lose it)", "DELETE FROM categories WHERE id = $1", [category.id]],
    ];
    for (const [what, statement, values] of writes) {
      await sql.query(statement, values);
      version = await expectKept(f.familyId, version, what);
    }
    // A merchant's colour is not what any list filters on.
    const kept = await f.call("merchants.create", { merchant: { name: "Corner shop" } });
    version = (await ledgerOf(f.familyId)).version;
    await sql.query("UPDATE merchants SET color = '#123456' WHERE id = $1", [kept.id]);
    expect((await ledgerOf(f.familyId)).version).toBe(version);

    await insertEntries([[f.familyId, f.accountId, "transaction"]]);
    version = (await ledgerOf(f.familyId)).version;
    await sql.query("DELETE FROM accounts WHERE id = $1", [f.accountId]);
    await expectKept(f.familyId, version, "an account deleted with its entries");
    expect((await ledgerOf(f.familyId)).transactions).toBe(0n);
  });

  it("a transaction's writes move the version once, as it commits (rolled back, not at all): the version row is not held while it is open", async () => {
    const f = await familyWithAccount();
    const writer = new pg.Client({ connectionString: databaseUrlOf(finance.db) });
    await writer.connect();
    try {
      const before = await ledgerOf(f.familyId);
      await writer.query("BEGIN");
      const insert = (kind: string) =>
        writer.query(
          `INSERT INTO entries (id, family_id, account_id, kind, date, name, amount_cents, currency, updated_at)
           VALUES (gen_random_uuid(), $1, $2, $3::"EntryKind", '2026-03-01', 'Open', 100, 'USD', now())`,
          [f.familyId, f.accountId, kind],
        );
      await insert("transaction");
      await insert("transaction");
      await writer.query("UPDATE entries SET amount_cents = 200 WHERE family_id = $1 AND name = 'Open'", [f.familyId]);
      expect(await ledgerOf(f.familyId), "nothing shows before the commit").toEqual(before);

      // Another write of the family commits meanwhile: it does not wait for the open transaction.
      await sql.query("SET lock_timeout = '2s'");
      await insertEntries([[f.familyId, f.accountId, "transaction"]], "Meanwhile");
      await sql.query("RESET lock_timeout");
      expect(await ledgerOf(f.familyId)).toEqual({ version: before.version + 1n, transactions: 1n, counted: 1n });

      await writer.query("COMMIT");
      expect(await ledgerOf(f.familyId)).toEqual({ version: before.version + 2n, transactions: 3n, counted: 3n });

      await writer.query("BEGIN");
      await insert("transaction");
      await writer.query("ROLLBACK");
      expect((await ledgerOf(f.familyId)).version).toBe(before.version + 2n);

      // A savepoint rolled back takes its writes with it; the rest commits.
      await writer.query("BEGIN");
      await writer.query("SAVEPOINT undone");
      await insert("transaction");
      await writer.query("ROLLBACK TO SAVEPOINT undone");
      await insert("valuation");
      await writer.query("COMMIT");
      expect(await ledgerOf(f.familyId)).toEqual({ version: before.version + 3n, transactions: 3n, counted: 3n });
    } finally {
      await writer.end();
    }
  });

  it("a family without a ledger version row gets one at its first write, its count unknown until a list counts it", async () => {
    const actor = newActor();
    const accountId = randomUUID();
    await sql.query(
      `INSERT INTO accounts (id, family_id, name, account_type, classification, currency, updated_at)
       VALUES ($1, $2, 'Raw', 'depository', 'asset', 'USD', now())`,
      [accountId, actor.familyId],
    );
    expect(await ledgerOf(actor.familyId)).toEqual({ version: 0n, transactions: null, counted: 0n });
    await insertEntries([
      [actor.familyId, accountId, "transaction"],
      [actor.familyId, accountId, "transaction"],
    ]);
    expect(await ledgerOf(actor.familyId)).toEqual({ version: 1n, transactions: null, counted: 2n });
    expect((await financeAs(finance, actor)("transactions.list", {})).pagination.total_count).toBe(2);
    expect(await ledgerOf(actor.familyId)).toEqual({ version: 1n, transactions: 2n, counted: 2n });
  });
});

type Sync = [accountId: string, from: string | null];

/** Whether a sync of the account was asked for (made or widened) since `since`, from `from` or earlier (null: from its first entry). */
async function syncAsked(accountId: string, since: Date, from: string | null): Promise<boolean> {
  const syncs = await finance.db.sync.findMany({
    where: { syncableType: "Account", syncableId: accountId, parentId: null, updatedAt: { gte: since } },
    select: { windowStartDate: true },
  });
  return syncs.some(({ windowStartDate: start }) => start === null || (from !== null && isoDateOf(start) <= from));
}

/**
 * A family (with its first account) whose writes are each checked against the rule: `write` runs
 * one (waiting for what it queued to be done), then the version must have moved, the kept count be
 * a fresh count, and each account of `syncs` have had its sync asked for.
 */
async function checkedFamily(actor: Actor = newActor()) {
  const { call, accountId } = await familyWithAccount(actor);
  async function write<T>(what: string, work: () => Promise<T>, syncs: (result: T) => Sync[] = () => []): Promise<T> {
    await settled(finance);
    await call("transactions.list", {});
    const before = await ledgerOf(actor.familyId);
    const since = new Date(Date.now() - 1);
    const result = await work();
    await expectKept(actor.familyId, before.version, what);
    await settled(finance);
    for (const [account, from] of syncs(result)) {
      expect(await syncAsked(account, since, from), `${what}: the sync of ${account} from ${from ?? "its first entry"} asked for`).toBe(true);
    }
    return result;
  }
  return { actor, familyId: actor.familyId, call, checking: accountId, write };
}

const bodyOf = (answer: { body: { id: string } }) => answer.body;

/** Runs the rule now and waits for its run to end. */
async function ruleRun(call: Call, rule: Record<string, unknown>) {
  const { data: created } = await call("rules.create", { rule: { name: "Rule", active: false, ...rule } });
  const { data: queued } = await call("rules.apply", { id: created.id });
  return eventually(async () => {
    const run = RuleRunResponseSchema.parse(await call("ruleRuns.get", { id: queued.id })).data;
    expect(run.status).toBe("success");
    return run;
  });
}

describe("every write procedure keeps the rule", () => {
  it("accounts, transactions, transfers, trades and valuations", async () => {
    const { call, checking, write } = await checkedFamily();
    const savings = await write(
      "accounts.create",
      () => call("accounts.create", { account: { name: "Savings", account_type: "depository", opening_balance_date: "2026-01-01" } }),
      (made) => [[made.id, null]],
    );
    const tag = await call("tags.create", { tag: { name: "Trip" } });
    const txn = bodyOf(
      await write(
        "transactions.create",
        () => call("transactions.create", { transaction: { account_id: checking, date: "2026-02-10", amount: 12, name: "Lunch", tag_ids: [tag.id] } }),
        () => [[checking, "2026-02-10"]],
      ),
    );
    await write(
      "transactions.update",
      () => call("transactions.update", { id: txn.id, transaction: { date: "2026-02-05" } }),
      () => [[checking, "2026-02-05"]],
    );
    await write("transactions.update (tags only)", () => call("transactions.update", { id: txn.id, transaction: { tag_ids: [] } }));
    const transfer = await write(
      "transfers.create",
      () =>
        call("transfers.create", {
          transfer: { from_account_id: checking, to_account_id: savings.id, amount: "50", date: "2026-02-12", source_fee: "1", destination_fee: "0.50" },
        }),
      () => [
        [checking, "2026-02-12"],
        [savings.id, "2026-02-12"],
      ],
    );
    await write(
      "transfers.delete (its fees with it)",
      () => call("transfers.delete", { id: transfer.id }),
      () => [
        [checking, "2026-02-12"],
        [savings.id, "2026-02-12"],
      ],
    );

    const brokerage = await call("accounts.create", {
      account: { name: "Brokerage", account_type: "investment", balance: 5000, opening_balance_date: "2026-01-01" },
    });
    const trade = bodyOf(
      await write(
        "trades.create",
        () => call("trades.create", { trade: { account_id: brokerage.id, type: "buy", date: "2026-03-02", qty: 2, price: "100", ticker: "AAPL" } }),
        () => [[brokerage.id, "2026-03-02"]],
      ),
    );
    await write(
      "trades.update",
      () => call("trades.update", { id: trade.id, trade: { date: "2026-02-20", qty: "3" } }),
      () => [[brokerage.id, "2026-02-20"]],
    );
    await write(
      "trades.delete",
      () => call("trades.delete", { id: trade.id }),
      () => [[brokerage.id, "2026-02-20"]],
    );

    const valuation = bodyOf(
      await write(
        "valuations.create",
        () => call("valuations.create", { valuation: { account_id: checking, amount: 500, date: "2026-03-01" } }),
        () => [[checking, "2026-03-01"]],
      ),
    );
    await write(
      "valuations.update",
      () => call("valuations.update", { id: valuation.id, valuation: { amount: 450, date: "2026-02-28" } }),
      () => [[checking, "2026-02-28"]],
    );
    await write(
      "transactions.delete",
      () => call("transactions.delete", { id: txn.id }),
      () => [[checking, "2026-02-05"]],
    );
  });

  it("imports: published, reverted and deleted (transactions, trades, accounts, a Sure export), and the bulk ledger import", async () => {
    const { actor, call, checking, write } = await checkedFamily();
    const csv = ["date,amount,name", "2026-02-03,-10.00,Refund", "2026-02-01,4.50,Coffee", "2026-02-02,8.00,Books"].join("\n");
    const transactions = { type: "TransactionImport", account_id: checking, raw_file_content: csv, date_format: "%Y-%m-%d" };
    const done = await write(
      "a transaction import published",
      () => publishedImport(call, transactions),
      () => [[checking, "2026-02-01"]],
    );
    expect(done.status).toBe("complete");
    await write(
      "imports.revert",
      () => call("imports.revert", { id: done.id }),
      () => [[checking, "2026-02-01"]],
    );
    await write(
      "an import published again",
      async () => {
        await call("imports.publish", { id: done.id });
        await eventually(async () => expect(ImportResponseSchema.parse(await call("imports.get", { id: done.id })).data.status).toBe("complete"));
      },
      () => [[checking, "2026-02-01"]],
    );
    await write(
      "imports.delete (what it added with it)",
      () => call("imports.delete", { id: done.id }),
      () => [[checking, "2026-02-01"]],
    );

    const brokerage = await call("accounts.create", {
      account: { name: "Brokerage", account_type: "investment", balance: 5000, opening_balance_date: "2026-01-01" },
    });
    const trades = ["date,ticker,qty,price", "2026-03-03,AAPL,2,150.00", "2026-03-02,MSFT,1,300.00"].join("\n");
    await write(
      "a trade import published",
      () => publishedImport(call, { type: "TradeImport", account_id: brokerage.id, raw_file_content: trades, date_format: "%Y-%m-%d" }),
      () => [[brokerage.id, "2026-03-02"]],
    );
    const accounts = ["type,name,amount,currency,date", "Checking,Imported checking,250.00,USD,2026-01-15"].join("\n");
    await write("an account import published", () => publishedImport(call, { type: "AccountImport", raw_file_content: accounts, date_format: "%Y-%m-%d" }));

    await call("transactions.create", { transaction: { account_id: checking, date: "2026-02-10", amount: 12, name: "Lunch" } });
    const movingIn = await checkedFamily();
    const sure = await movingIn.write("a Sure export published", async () =>
      publishedImport(movingIn.call, { type: "SureImport", raw_file_content: await exportedNdjson(finance, actor.familyId) }),
    );
    expect(sure.status, sure.error ?? "").toBe("complete");

    const entry = {
      account_id: checking,
      kind: "transaction",
      transaction_kind: "standard",
      name: "Bulk",
      currency: "USD",
      category_id: null,
      merchant_id: null,
    };
    await write("ledger.import", () =>
      finance.call(
        "ledger.import",
        "mutation",
        {
          entries: [
            { ...entry, id: randomUUID(), date: "2026-03-05", amount_cents: "700" },
            { ...entry, id: randomUUID(), date: "2026-03-06", amount_cents: "-900" },
          ],
          entry_tags: [],
          transfers: [],
        },
        contextOf(actor),
      ),
    );
  });

  it("rules: a run that changes entries, and one that makes transfers", async () => {
    const { call, checking, write } = await checkedFamily();
    const savings = await call("accounts.create", { account: { name: "Savings", account_type: "depository", opening_balance_date: "2026-01-01" } });
    for (const [date, name] of [
      ["2026-02-01", "Coffee"],
      ["2026-02-03", "Coffee beans"],
      ["2026-02-04", "Rent"],
    ]) {
      await call("transactions.create", { transaction: { account_id: checking, date, amount: 5, name } });
    }
    const category = await call("categories.create", { category: { name: "Cafes" } });
    const coffee = [{ condition_type: "transaction_name", operator: "like", value: "coffee" }];
    await write("a rule run setting a category", () =>
      ruleRun(call, { conditions: coffee, actions: [{ action_type: "set_transaction_category", value: category.id }] }),
    );
    const tag = await call("tags.create", { tag: { name: "Caffeine" } });
    await write("a rule run setting a tag", () => ruleRun(call, { conditions: coffee, actions: [{ action_type: "set_transaction_tags", value: tag.id }] }));
    const rent = [{ condition_type: "transaction_name", operator: "like", value: "rent" }];
    await write(
      "a rule run making transfers",
      () => ruleRun(call, { conditions: rent, actions: [{ action_type: "set_as_transfer_or_payment", value: savings.id }] }),
      () => [[savings.id, "2026-02-04"]],
    );
  });

  it("categories, merchants and tags: deleted while transactions use them, a merchant renamed", async () => {
    const { call, checking, write } = await checkedFamily();
    const category = await call("categories.create", { category: { name: "Food" } });
    const merchant = await call("merchants.create", { merchant: { name: "Bakery" } });
    const tag = await call("tags.create", { tag: { name: "Weekly" } });
    await call("transactions.create", {
      transaction: {
        account_id: checking,
        date: "2026-02-01",
        amount: 3,
        name: "Bread",
        category_id: category.id,
        merchant_id: merchant.id,
        tag_ids: [tag.id],
      },
    });
    await write("merchants.update (a new name)", () => call("merchants.update", { id: merchant.id, merchant: { name: "Old bakery" } }));
    await write("merchants.delete", () => call("merchants.delete", { id: merchant.id }));
    await write("categories.delete", () => call("categories.delete", { id: category.id }));
    await write("tags.delete", () => call("tags.delete", { id: tag.id }));
  });

  it("an account removed, and the family's financial data reset", async () => {
    const { actor, call, checking, write } = await checkedFamily();
    const savings = await call("accounts.create", { account: { name: "Savings", account_type: "depository", opening_balance_date: "2026-01-01" } });
    await call("transactions.create", { transaction: { account_id: checking, date: "2026-02-01", amount: 3, name: "Bread" } });
    await call("transfers.create", {
      transfer: { from_account_id: checking, to_account_id: savings.id, amount: "20", date: "2026-02-02", source_fee: "1", destination_fee: "1" },
    });
    await write("accounts.delete (its removal)", async () => {
      await call("accounts.delete", { id: checking });
      await settled(finance);
    });
    await write("familyData.purge", async () => {
      for (;;) {
        const step = (await finance.call("familyData.purge", "mutation", { familyId: actor.familyId, scope: "financial_data" }, contextOf(null))) as {
          done: boolean;
        };
        if (step.done) return;
      }
    });
    expect((await ledgerOf(actor.familyId)).transactions).toBe(0n);
  });
});

describe("parallel writers of one family", () => {
  it("all succeed, leaving the account one pending sync and the count right (they once deadlocked on two pending syncs)", async () => {
    const { call, familyId, accountId } = await familyWithAccount();
    // No sync runs here: the writers widen or add the account's pending syncs among themselves.
    await finance.parts.jobs.stop();
    try {
      const written = await Promise.allSettled(
        Array.from({ length: 24 }, (_, i) =>
          call("transactions.create", {
            transaction: { account_id: accountId, date: `2026-02-${String(1 + i).padStart(2, "0")}`, amount: 5, name: `Parallel ${i}` },
          }),
        ),
      );
      expect(written.filter((outcome) => outcome.status === "rejected").map((outcome) => String((outcome as PromiseRejectedResult).reason))).toEqual([]);
      const pending = await finance.db.sync.count({ where: { syncableId: accountId, status: "pending", parentId: null } });
      expect(pending).toBe(1);
      const ledger = await ledgerOf(familyId);
      expect(ledger.transactions).toBe(ledger.counted);
    } finally {
      finance.parts.jobs.start();
    }
  });
});
