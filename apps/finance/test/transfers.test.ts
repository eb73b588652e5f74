import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { TransferSchema } from "@hearth/contracts";
import { Prisma } from "../src/generated/prisma/client";
import { CROSS_CURRENCY_CANDIDATES_PER_OUTFLOW, createTransferMatchQueries } from "../src/transfers/transfer-match-queries";
import { MATCH_WINDOW_DAYS } from "../src/transfers/transfer-matcher";
import { expectAppError, financeAs, newActor, settled, startFinance, type RunningFinance } from "./support";

let finance: RunningFinance;

beforeAll(async () => {
  finance = await startFinance();
});
afterAll(async () => finance?.stop());

async function familyWithAccounts() {
  const call = financeAs(finance, newActor());
  const checking = await call("accounts.create", {
    account: { name: "Checking", account_type: "depository", balance: 1000, opening_balance_date: "2026-01-01" },
  });
  const savings = await call("accounts.create", { account: { name: "Savings", account_type: "depository", opening_balance_date: "2026-01-01" } });
  const card = await call("accounts.create", { account: { name: "Card", account_type: "credit_card", balance: 300, opening_balance_date: "2026-01-01" } });
  return { call, checking, savings, card };
}

describe("transfers", () => {
  it("are recorded as a confirmed pair moving both balances, with fees on either side", async () => {
    const { call, checking, card } = await familyWithAccounts();
    const transfer = TransferSchema.parse(
      await call("transfers.create", {
        transfer: {
          from_account_id: checking.id,
          to_account_id: card.id,
          amount: "200",
          date: "2026-02-01",
          source_fee: "1.50",
          destination_fee: "0.50",
          notes: "March bill",
        },
      }),
    );
    // Sure's Transfer::Creator: a payment to a card is cc_payment (transfer_type liability_payment),
    // named "Payment to ..."; each fee is its own expense in the Fees category (Sure's
    // transfer_test.rb, "fee transactions"), and the fee fields are BigDecimal "F" text.
    expect(transfer).toMatchObject({
      status: "confirmed",
      transfer_type: "liability_payment",
      amount: "$200.00",
      amount_cents: 20000,
      currency: "USD",
      date: "2026-02-01",
      notes: "March bill",
      source_fee_amount: "1.5",
      source_fee_amount_cents: 150,
      source_fee_currency: "USD",
      destination_fee_amount: "0.5",
      destination_fee_amount_cents: 50,
      destination_fee_currency: "USD",
      outflow_transaction: { amount_cents: 20000, kind: "cc_payment", name: "Payment to Card", account: { id: checking.id } },
      inflow_transaction: { amount_cents: -20000, kind: "funds_movement", name: "Payment from Checking", account: { id: card.id } },
    });
    await settled(finance);
    expect((await call("accounts.get", { id: checking.id })).balance_cents).toBe(100000 - 20150);
    // A payment lowers what is owed on the card; its fee raises it.
    expect((await call("accounts.get", { id: card.id })).balance_cents).toBe(30000 - 20000 + 50);
    const fees = (await call("transactions.list", { search: "Transfer fee" })).transactions;
    expect(
      fees
        .map((fee: { name: string; amount_cents: number; kind: string; category: { name: string } }) => [
          fee.name,
          fee.amount_cents,
          fee.kind,
          fee.category.name,
        ])
        .sort(),
    ).toEqual([
      ["Transfer fee — Payment from Checking", 50, "standard", "Fees"],
      ["Transfer fee — Payment to Card", 150, "standard", "Fees"],
    ]);
    const side = await call("transactions.get", { id: transfer.outflow_transaction.id });
    expect(side.transfer).toMatchObject({ id: transfer.id, amount: "$200.00", amount_cents: 20000, currency: "USD", other_account: { id: card.id } });
    expect((await call("transfers.list", { account_id: card.id })).transfers.map((t: { id: string }) => t.id)).toEqual([transfer.id]);

    await expectAppError(
      call("transfers.create", { transfer: { from_account_id: checking.id, to_account_id: checking.id, amount: 1, date: "2026-02-01" } }),
      "validation_failed",
    );
    await expectAppError(financeAs(finance, newActor())("transfers.get", { id: transfer.id }), "record_not_found");
  });

  it("between currencies need the amount that arrives", async () => {
    const { call, checking } = await familyWithAccounts();
    const euros = await call("accounts.create", {
      account: { name: "Euros", account_type: "depository", currency: "EUR", opening_balance_date: "2026-01-01" },
    });
    await expectAppError(
      call("transfers.create", { transfer: { from_account_id: checking.id, to_account_id: euros.id, amount: 100, date: "2026-02-01" } }),
      "validation_failed",
    );
    const transfer = await call("transfers.create", {
      transfer: { from_account_id: checking.id, to_account_id: euros.id, amount: 100, destination_amount: 90, date: "2026-02-01" },
    });
    // Sure's view: amount and currency of what arrived (the inflow), and fees "0.0" when there are none.
    expect(transfer).toMatchObject({
      currency: "EUR",
      amount: "€90.00",
      amount_cents: 9000,
      source_fee_amount: "0.0",
      source_fee_currency: "USD",
      destination_fee_amount: "0.0",
      destination_fee_currency: "EUR",
      outflow_transaction: { amount_cents: 10000, currency: "USD" },
      inflow_transaction: { amount_cents: -9000, currency: "EUR" },
    });
    await settled(finance);
    expect((await call("accounts.get", { id: euros.id })).balance_cents).toBe(9000);
  });

  it("are proposed by matching an outflow and an inflow of equal size days apart; a rejected pair is never proposed again", async () => {
    const { call, checking, savings } = await familyWithAccounts();
    const out = await call("transactions.create", { transaction: { account_id: checking.id, date: "2026-03-01", amount: 250, name: "To savings" } });
    const into = await call("transactions.create", {
      transaction: { account_id: savings.id, date: "2026-03-03", amount: 250, nature: "inflow", name: "From checking" },
    });
    // Too far apart (more than four days) and of another size: never matched.
    await call("transactions.create", { transaction: { account_id: savings.id, date: "2026-03-20", amount: -250, name: "Late" } });
    await call("transactions.create", { transaction: { account_id: savings.id, date: "2026-03-02", amount: -249, name: "Close" } });
    await settled(finance);

    const pending = (await call("transfers.list", { status: "pending" })).transfers;
    expect(pending).toHaveLength(1);
    expect(pending[0]).toMatchObject({
      outflow_transaction: { id: out.body.id, kind: "funds_movement" },
      inflow_transaction: { id: into.body.id },
      transfer_type: "transfer",
    });
    expect((await call("transfers.update", { id: pending[0].id, transfer: { status: "rejected" } })).message).toBe("Transfer rejected");
    expect((await call("transactions.get", { id: out.body.id })).kind).toBe("standard");
    const rejected = (await call("rejectedTransfers.list", {})).rejected_transfers;
    expect(rejected).toHaveLength(1);
    expect(rejected[0]).toMatchObject({ outflow_transaction: { id: out.body.id }, inflow_transaction: { id: into.body.id } });
    expect(await call("rejectedTransfers.get", { id: rejected[0].id })).toMatchObject({ id: rejected[0].id });

    await call("syncs.create");
    await settled(finance);
    expect((await call("transfers.list", {})).transfers).toEqual([]);

    // Another pair is proposed, confirmed, then unlinked.
    const out2 = await call("transactions.create", { transaction: { account_id: checking.id, date: "2026-04-01", amount: 75, name: "Move" } });
    await call("transactions.create", { transaction: { account_id: savings.id, date: "2026-04-01", amount: -75, name: "Move in" } });
    await settled(finance);
    const [proposed] = (await call("transfers.list", { status: "pending" })).transfers;
    expect(proposed.outflow_transaction.id).toBe(out2.body.id);
    expect(await call("transfers.update", { id: proposed.id, transfer: { status: "confirmed", notes: "ok" } })).toMatchObject({
      status: "confirmed",
      notes: "ok",
    });
    expect(await call("transfers.delete", { id: proposed.id })).toEqual({ message: "Transfer deleted successfully" });
    await expectAppError(call("transfers.get", { id: proposed.id }), "record_not_found");
    expect((await call("transactions.get", { id: out2.body.id })).transfer).toBeNull();
  });

  // Sure: Transfer.kind_for_account and Transfer::Creator#outflow_transaction_kind (transfer_test.rb,
  // "kind for account"): the destination decides the outflow's kind and the transfer_type follows.
  it("take their kind from the destination: investment contribution, card or other liability payment, loan payment", async () => {
    const { call, checking, savings, card } = await familyWithAccounts();
    const account = (name: string, account_type: string) => call("accounts.create", { account: { name, account_type, opening_balance_date: "2026-01-01" } });
    const brokerage = await account("Brokerage", "investment");
    const wallet = await account("Wallet", "crypto");
    const iou = await account("IOU", "other_liability");
    const mortgage = await account("Mortgage", "loan");
    const send = (from: { id: string }, to: { id: string }) =>
      call("transfers.create", { transfer: { from_account_id: from.id, to_account_id: to.id, amount: 10, date: "2026-02-01" } });
    const cases: [unknown, string, string, string | null][] = [
      [await send(checking, brokerage), "investment_contribution", "transfer", "Investment Contributions"],
      [await send(checking, wallet), "investment_contribution", "transfer", "Investment Contributions"],
      [await send(brokerage, wallet), "funds_movement", "transfer", null], // between investment accounts: a movement
      [await send(checking, card), "cc_payment", "liability_payment", null],
      [await send(checking, iou), "cc_payment", "liability_payment", null],
      [await send(checking, mortgage), "loan_payment", "loan_payment", null],
      [await send(checking, savings), "funds_movement", "transfer", null],
    ];
    for (const [transfer, kind, type, category] of cases) {
      const t = transfer as { transfer_type: string; outflow_transaction: { id: string; kind: string } };
      expect([t.outflow_transaction.kind, t.transfer_type]).toEqual([kind, type]);
      expect((await call("transactions.get", { id: t.outflow_transaction.id })).category?.name ?? null).toBe(category);
    }
  });

  it("take their fee transactions with them when deleted, and the balances follow", async () => {
    const { call, checking, savings } = await familyWithAccounts();
    const transfer = await call("transfers.create", {
      transfer: { from_account_id: checking.id, to_account_id: savings.id, amount: 100, date: "2026-02-01", source_fee: 2, destination_fee: 1 },
    });
    await settled(finance);
    expect((await call("accounts.get", { id: checking.id })).balance_cents).toBe(100000 - 10000 - 200);
    expect((await call("accounts.get", { id: savings.id })).balance_cents).toBe(10000 - 100);
    await call("transfers.delete", { id: transfer.id });
    await settled(finance);
    expect((await call("transactions.list", { search: "Transfer fee" })).transactions).toEqual([]);
    // The pair stays as ordinary transactions; the fees are gone.
    expect((await call("accounts.get", { id: checking.id })).balance_cents).toBe(100000 - 10000);
    expect((await call("accounts.get", { id: savings.id })).balance_cents).toBe(10000);
    expect((await call("transactions.list", {})).pagination.total_count).toBe(2);
  });

  it("list newest first by creation and filter by either side's date (Sure's TransferDecisionFiltering)", async () => {
    const { call, checking, savings } = await familyWithAccounts();
    const early = await call("accounts.create", { account: { name: "Slow bank", account_type: "depository", opening_balance_date: "2026-01-01" } });
    const first = await call("transfers.create", { transfer: { from_account_id: checking.id, to_account_id: savings.id, amount: 5, date: "2026-05-01" } });
    const second = await call("transfers.create", { transfer: { from_account_id: checking.id, to_account_id: early.id, amount: 6, date: "2026-03-01" } });
    expect((await call("transfers.list", {})).transfers.map((t: { id: string }) => t.id)).toEqual([second.id, first.id]);
    expect((await call("transfers.list", { start_date: "2026-04-01" })).transfers.map((t: { id: string }) => t.id)).toEqual([first.id]);
  });

  // Sure: auto_transfer_matchable_test.rb ("does not match excluded transactions", "does not match
  // disabled accounts", "matches transfers across currencies within tolerance").
  it("are matched skipping excluded entries and disabled accounts, and across currencies within 10% at the outflow date's rate", async () => {
    const { call, checking, savings } = await familyWithAccounts();
    const euros = await call("accounts.create", {
      account: { name: "Euros", account_type: "depository", currency: "EUR", opening_balance_date: "2026-01-01" },
    });
    const old = await call("accounts.create", { account: { name: "Old", account_type: "depository", opening_balance_date: "2026-01-01" } });
    await call("exchangeRates.upsert", { from: "USD", to: "EUR", date: "2026-05-01", rate: "0.9" });
    const txn = (account: { id: string }, date: string, amount: number | string, extra: object = {}) =>
      call("transactions.create", { transaction: { account_id: account.id, date, amount, name: "x", ...extra } });
    // Excluded: never matched.
    await txn(checking, "2026-05-02", 40, { excluded: true });
    await txn(savings, "2026-05-02", -40);
    // A disabled account: never matched.
    await call("accounts.update", { id: old.id, account: { status: "disabled" } });
    await txn(checking, "2026-05-03", 41);
    await txn(old, "2026-05-03", -41);
    // Across currencies: 100 USD out, 93 EUR in (expected 90 at 0.9: within 10%); 80 EUR is not (0.89).
    const out = await txn(checking, "2026-05-04", 100);
    const into = await txn(euros, "2026-05-05", -93);
    await txn(checking, "2026-05-10", 100);
    await txn(euros, "2026-05-10", -80);
    await settled(finance);
    const pending = (await call("transfers.list", { status: "pending" })).transfers;
    expect(
      pending.map((t: { outflow_transaction: { id: string }; inflow_transaction: { id: string } }) => [t.outflow_transaction.id, t.inflow_transaction.id]),
    ).toEqual([[out.body.id, into.body.id]]);
    expect(pending[0]).toMatchObject({ currency: "EUR", amount_cents: 9300 });
  });
});

/** A family of two accounts (USD and EUR) written straight to the tables, with a USD→EUR rate every day of 2026's first half. */
async function twoCurrencyFamily() {
  const familyId = randomUUID();
  const dollars = randomUUID();
  const euros = randomUUID();
  await finance.db.$executeRaw`
    INSERT INTO accounts (id, family_id, name, account_type, classification, currency, updated_at)
    VALUES (${dollars}::uuid, ${familyId}::uuid, 'Dollars', 'depository', 'asset', 'USD', now()),
           (${euros}::uuid, ${familyId}::uuid, 'Euros', 'depository', 'asset', 'EUR', now())`;
  await finance.db.$executeRaw`
    INSERT INTO exchange_rates (id, family_id, from_currency, to_currency, date, rate, updated_at)
    SELECT gen_random_uuid(), ${familyId}::uuid, 'USD', 'EUR', d::date, 0.88 + (extract(doy FROM d)::int % 5) / 100.0, now()
      FROM generate_series('2026-01-01'::date, '2026-06-30'::date, '1 day') d`;
  return { familyId, dollars, euros };
}

/** The finance database, recording the SQL of every $queryRaw made through it. */
function recordingQueries() {
  const queries: Prisma.Sql[] = [];
  const db = new Proxy(finance.db, {
    get(target, property) {
      if (property === "$queryRaw") {
        return (strings: TemplateStringsArray, ...values: unknown[]) => {
          queries.push(Prisma.sql(strings, ...values));
          return target.$queryRaw(strings, ...values);
        };
      }
      const value = Reflect.get(target, property, target);
      return typeof value === "function" ? value.bind(target) : value;
    },
  });
  return { db, queries };
}

describe("transfer candidates across currencies", () => {
  // A year of card payments in two currencies: every outflow has dozens of inflows within 10% a few
  // days around it. Pairing them all ran for seconds per write and returned hundreds of thousands of rows.
  it("keep each outflow's closest few, found through the (family, currency, date, amount) index", async () => {
    const { familyId, dollars, euros } = await twoCurrencyFamily();
    const count = 5000;
    await finance.db.$executeRaw`
      INSERT INTO entries (id, family_id, account_id, kind, date, name, amount_cents, currency, updated_at)
      SELECT gen_random_uuid(), ${familyId}::uuid, ${dollars}::uuid, 'transaction', '2026-01-01'::date + (g * 7919) % 180, 'Out', 1000 + (g * 104729) % 99000, 'USD', now()
        FROM generate_series(1, ${count}::int) g`;
    await finance.db.$executeRaw`
      INSERT INTO entries (id, family_id, account_id, kind, date, name, amount_cents, currency, updated_at)
      SELECT gen_random_uuid(), ${familyId}::uuid, ${euros}::uuid, 'transaction', '2026-01-01'::date + (g * 3571) % 180, 'In', -(900 + (g * 130363) % 89100), 'EUR', now()
        FROM generate_series(1, ${count}::int) g`;
    await finance.db.$executeRawUnsafe("ANALYZE entries");
    const { db, queries } = recordingQueries();
    const candidates = createTransferMatchQueries(db);

    const all = await candidates.candidates(familyId, { accountId: null, since: null, windowDays: MATCH_WINDOW_DAYS });
    const perOutflow = new Map<string, number>();
    for (const pair of all) perOutflow.set(pair.outflow_id, (perOutflow.get(pair.outflow_id) ?? 0) + 1);
    expect(perOutflow.size).toBeGreaterThan(count / 2);
    expect(Math.max(...perOutflow.values())).toBe(CROSS_CURRENCY_CANDIDATES_PER_OUTFLOW);
    expect(all.length).toBeLessThanOrEqual(count * CROSS_CURRENCY_CANDIDATES_PER_OUTFLOW);

    // What every write runs: one account, from a recent day. Either side of the pair may be the account's.
    for (const accountId of [dollars, euros]) {
      const recent = await candidates.candidates(familyId, { accountId, since: "2026-06-20", windowDays: MATCH_WINDOW_DAYS });
      expect(recent.length).toBeGreaterThan(0);
      expect(recent.length).toBeLessThan(all.length / 10);
      expect(recent.every((pair) => perOutflow.has(pair.outflow_id))).toBe(true);
    }

    // The inflows are probed through the index made for it, not by pairing everything first.
    const cross = queries.filter((sql) => sql.sql.includes("exchange_rates"));
    expect(cross.length).toBeGreaterThan(0);
    for (const sql of cross) {
      const plan = (await finance.db.$queryRaw<{ "QUERY PLAN": string }[]>(Prisma.sql`EXPLAIN ${sql}`)).map((row) => row["QUERY PLAN"]).join("\n");
      expect(plan).toContain("entries_family_id_currency_date_amount_cents_idx");
    }
  }, 60_000);

  it("keep an outflow's closest candidates: fewest days apart first, then by id", async () => {
    const { familyId, dollars, euros } = await twoCurrencyFamily();
    const entry = async (accountId: string, date: string, cents: number, currency: string) => {
      const id = randomUUID();
      await finance.db.$executeRaw`
        INSERT INTO entries (id, family_id, account_id, kind, date, name, amount_cents, currency, updated_at)
        VALUES (${id}::uuid, ${familyId}::uuid, ${accountId}::uuid, 'transaction', ${date}::date, 'x', ${cents}, ${currency}, now())`;
      return id;
    };
    // 100 USD out on June 10th; the rate that day is 0.88 + (161 % 5) / 100 = 0.89: 89 EUR expected.
    const out = await entry(dollars, "2026-06-10", 10000, "USD");
    const inflows = [];
    for (const date of ["2026-06-14", "2026-06-06", "2026-06-12", "2026-06-09", "2026-06-11", "2026-06-10", "2026-06-10"]) {
      inflows.push({ date, id: await entry(euros, date, -9000, "EUR") });
    }
    const apart = (date: string) => Math.abs(Date.parse(date) - Date.parse("2026-06-10")) / 86_400_000;
    const closest = inflows
      .sort((a, b) => apart(a.date) - apart(b.date) || (a.id < b.id ? -1 : 1))
      .slice(0, CROSS_CURRENCY_CANDIDATES_PER_OUTFLOW)
      .map((inflow) => inflow.id);
    const found = await createTransferMatchQueries(finance.db).candidates(familyId, { accountId: null, since: null, windowDays: MATCH_WINDOW_DAYS });
    expect(found).toEqual(closest.map((inflow_id) => ({ outflow_id: out, inflow_id, inflow_account_type: "depository" })));
  });

  it("do not overflow at the largest rate and amounts the ledger holds", async () => {
    const { familyId, dollars, euros } = await twoCurrencyFamily();
    await finance.db.$executeRaw`UPDATE exchange_rates SET rate = 999999999999.999999999999 WHERE family_id = ${familyId}::uuid`;
    await finance.db.$executeRaw`
      INSERT INTO entries (id, family_id, account_id, kind, date, name, amount_cents, currency, updated_at)
      VALUES (gen_random_uuid(), ${familyId}::uuid, ${dollars}::uuid, 'transaction', '2026-06-10', 'x', 1000000000000, 'USD', now()),
             (gen_random_uuid(), ${familyId}::uuid, ${euros}::uuid, 'transaction', '2026-06-10', 'x', -1000000000000, 'EUR', now())`;
    const found = await createTransferMatchQueries(finance.db).candidates(familyId, { accountId: dollars, since: null, windowDays: MATCH_WINDOW_DAYS });
    expect(found).toEqual([]);
  });
});

describe("transfer candidates in one currency", () => {
  // A card of many small purchases and a few refunds and payments in, as a seeded family of a
  // million entries has: an account sync (every write) once scanned all of the family's outflows.
  async function manySmallPurchases() {
    const familyId = randomUUID();
    const [checking, card, savings] = [randomUUID(), randomUUID(), randomUUID()];
    await finance.db.$executeRaw`
      INSERT INTO accounts (id, family_id, name, account_type, classification, currency, updated_at)
      VALUES (${checking}::uuid, ${familyId}::uuid, 'Checking', 'depository', 'asset', 'USD', now()),
             (${card}::uuid, ${familyId}::uuid, 'Card', 'credit_card', 'liability', 'USD', now()),
             (${savings}::uuid, ${familyId}::uuid, 'Savings', 'depository', 'asset', 'USD', now())`;
    // Purchases of 1 to 3 dollars on the card and from checking; refunds and money in on all three.
    await finance.db.$executeRaw`
      INSERT INTO entries (id, family_id, account_id, kind, date, name, amount_cents, currency, updated_at)
      SELECT gen_random_uuid(), ${familyId}::uuid, CASE WHEN g % 3 = 0 THEN ${checking}::uuid ELSE ${card}::uuid END,
             'transaction', '2026-01-01'::date + (g * 7919) % 180, 'Purchase', 100 + (g * 104729) % 200, 'USD', now()
        FROM generate_series(1, 20000) g`;
    await finance.db.$executeRaw`
      INSERT INTO entries (id, family_id, account_id, kind, date, name, amount_cents, currency, updated_at)
      SELECT gen_random_uuid(), ${familyId}::uuid, (ARRAY[${checking}::uuid, ${card}::uuid, ${savings}::uuid])[1 + g % 3],
             'transaction', '2026-01-01'::date + (g * 3571) % 180, 'Money in', -(100 + (g * 130363) % 200), 'USD', now()
        FROM generate_series(1, 300) g`;
    return { familyId, checking, card, savings };
  }

  it("for an account and a day are exactly the family's pairs touching it from that day, the outflows found through a (family, currency, amount, date) index", async () => {
    const { familyId, checking, card, savings } = await manySmallPurchases();
    const { db, queries } = recordingQueries();
    const candidates = createTransferMatchQueries(db);
    const all = await candidates.candidates(familyId, { accountId: null, since: null, windowDays: MATCH_WINDOW_DAYS });
    expect(all.length).toBeGreaterThan(300);
    const rows = await finance.db.$queryRaw<
      { id: string; account_id: string; date: Date }[]
    >`SELECT id, account_id, date FROM entries WHERE family_id = ${familyId}::uuid`;
    const entry = new Map(rows.map((row) => [row.id, { account: row.account_id, day: row.date.toISOString().slice(0, 10) }]));
    const key = (pair: { outflow_id: string; inflow_id: string }) => `${pair.outflow_id}>${pair.inflow_id}`;

    for (const accountId of [checking, card, savings]) {
      for (const since of [null, "2026-05-01", "2026-06-25"]) {
        const scoped = await candidates.candidates(familyId, { accountId, since, windowDays: MATCH_WINDOW_DAYS });
        const expected = all.filter((pair) => {
          const [out, into] = [entry.get(pair.outflow_id)!, entry.get(pair.inflow_id)!];
          return (out.account === accountId || into.account === accountId) && (since === null || out.day >= since || into.day >= since);
        });
        expect(scoped.map(key).sort(), `${accountId} from ${since}`).toEqual(expected.map(key).sort());
      }
    }

    // Planned before any statistics of the loaded rows, as a sync running during a large import is:
    // the outflows are still probed through the index, never scanned.
    const scoped = queries.filter((sql) => !sql.sql.includes("exchange_rates") && sql.values.includes(card));
    expect(scoped.length).toBeGreaterThan(0);
    await finance.db
      .$transaction(async (tx) => {
        await tx.$executeRawUnsafe("DELETE FROM pg_statistic WHERE starelid = 'entries'::regclass");
        for (const sql of scoped) {
          const plan = (await tx.$queryRaw<{ "QUERY PLAN": string }[]>(Prisma.sql`EXPLAIN ${sql}`)).map((row) => row["QUERY PLAN"]).join("\n");
          expect(plan).toMatch(/Index Scan using entries_family_id_currency_(amount_cents_date|date_amount_cents)_idx on entries o\b/);
          expect(plan).not.toMatch(/Seq Scan on entries o\b/);
        }
        throw new Error("roll back the statistics");
      })
      .catch((err: Error) => expect(err.message).toBe("roll back the statistics"));
  }, 120_000);
});

describe("proposing matched transfers", () => {
  it("records the pairs in one go, skipping a pair a transfer made meanwhile has a side of or whose entry is gone, and gives only the recorded ones their kinds", async () => {
    const familyId = randomUUID();
    const [checking, brokerage] = [randomUUID(), randomUUID()];
    await finance.db.$executeRaw`
      INSERT INTO accounts (id, family_id, name, account_type, classification, currency, updated_at)
      VALUES (${checking}::uuid, ${familyId}::uuid, 'Checking', 'depository', 'asset', 'USD', now()),
             (${brokerage}::uuid, ${familyId}::uuid, 'Brokerage', 'investment', 'asset', 'USD', now())`;
    const entry = async (accountId: string, cents: number) => {
      const id = randomUUID();
      await finance.db.$executeRaw`
        INSERT INTO entries (id, family_id, account_id, kind, date, name, amount_cents, currency, transaction_kind, updated_at)
        VALUES (${id}::uuid, ${familyId}::uuid, ${accountId}::uuid, 'transaction', '2026-03-01', 'x', ${cents}, 'USD', 'standard', now())`;
      return id;
    };
    const pairs = [];
    for (let i = 0; i < 3; i++)
      pairs.push({
        outflowId: await entry(checking, 1000 + i),
        inflowId: await entry(brokerage, -(1000 + i)),
        outflowKind: "investment_contribution" as const,
      });
    // A user's transfer took the second pair's outflow after the candidates were read.
    const other = await entry(brokerage, -1001);
    await finance.db.transfer.create({ data: { familyId, outflowEntryId: pairs[1]!.outflowId, inflowEntryId: other, status: "confirmed" } });

    // And the third pair's inflow was deleted meanwhile: its pair is left out, the rest recorded.
    const gone = { outflowId: await entry(checking, 2000), inflowId: await entry(brokerage, -2000), outflowKind: "investment_contribution" as const };
    await finance.db.entry.delete({ where: { id: gone.inflowId } });
    expect(await createTransferMatchQueries(finance.db).proposeAll(familyId, [...pairs, gone])).toBe(2);
    expect((await finance.db.entry.findUniqueOrThrow({ where: { id: gone.outflowId } })).transactionKind).toBe("standard");
    const rows = await finance.db.entry.findMany({ where: { familyId }, select: { id: true, transactionKind: true, categoryId: true } });
    const byId = new Map(rows.map((row) => [row.id, row]));
    for (const index of [0, 2]) {
      expect(byId.get(pairs[index]!.outflowId)).toMatchObject({ transactionKind: "investment_contribution", categoryId: expect.any(String) });
      expect(byId.get(pairs[index]!.inflowId)!.transactionKind).toBe("funds_movement");
    }
    expect(byId.get(pairs[1]!.outflowId)).toMatchObject({ transactionKind: "standard", categoryId: null });
    expect(byId.get(pairs[1]!.inflowId)!.transactionKind).toBe("standard");
    expect(await finance.db.transfer.count({ where: { familyId, status: "pending" } })).toBe(2);
  });

  it("records the same pairs proposed by three syncs at once, in different orders, once each", async () => {
    const familyId = randomUUID();
    const [checking, savings] = [randomUUID(), randomUUID()];
    await finance.db.$executeRaw`
      INSERT INTO accounts (id, family_id, name, account_type, classification, currency, updated_at)
      VALUES (${checking}::uuid, ${familyId}::uuid, 'Checking', 'depository', 'asset', 'USD', now()),
             (${savings}::uuid, ${familyId}::uuid, 'Savings', 'depository', 'asset', 'USD', now())`;
    const ids = await finance.db.$queryRaw<{ id: string; amount_cents: bigint }[]>`
      INSERT INTO entries (id, family_id, account_id, kind, date, name, amount_cents, currency, updated_at)
      SELECT gen_random_uuid(), ${familyId}::uuid, CASE WHEN g % 2 = 0 THEN ${checking}::uuid ELSE ${savings}::uuid END, 'transaction', '2026-03-01',
             'x', CASE WHEN g % 2 = 0 THEN 1000 + g / 2 ELSE -(1000 + g / 2) END, 'USD', now()
        FROM generate_series(0, 599) g
      RETURNING id, amount_cents`;
    const outflows = new Map(ids.filter((row) => row.amount_cents > 0n).map((row) => [row.amount_cents, row.id]));
    const pairs = ids
      .filter((row) => row.amount_cents < 0n)
      .map((row) => ({ outflowId: outflows.get(-row.amount_cents)!, inflowId: row.id, outflowKind: "funds_movement" as const }));
    const queries = createTransferMatchQueries(finance.db);
    const recorded = await Promise.all([
      queries.proposeAll(familyId, pairs),
      queries.proposeAll(familyId, [...pairs].reverse()),
      queries.proposeAll(
        familyId,
        pairs.filter((_, i) => i % 2 === 0),
      ),
    ]);
    expect(recorded.reduce((sum, n) => sum + n, 0)).toBe(pairs.length);
    expect(await finance.db.transfer.count({ where: { familyId } })).toBe(pairs.length);
  });
});
