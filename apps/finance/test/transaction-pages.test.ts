import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { PageQuerySchema, TransactionListQuerySchema } from "@hearth/contracts";
import { checkpointsOf, countTransactions, pageIds, transactionFilterSql } from "../src/transactions/transaction-page-queries";
import { financeAs, newActor, startFinance, type RunningFinance } from "./support";

let finance: RunningFinance;

beforeAll(async () => {
  finance = await startFinance();
});
afterAll(async () => finance?.stop());

describe("transaction pages", () => {
  it("are the same slices of the newest-first order whichever way they are fetched (collect-and-sort, index walk, from a checkpoint)", async () => {
    const actor = newActor();
    const call = financeAs(finance, actor);
    const account = await call("accounts.create", { account: { name: "A", account_type: "depository" } });
    // 57 transactions over 9 days: several per day, so ties on the date are broken by id.
    for (let i = 0; i < 57; i++) {
      await call("transactions.create", { transaction: { account_id: account.id, date: `2026-02-0${1 + (i % 9)}`, amount: i + 1, name: `t${i}` } });
    }
    const expected = (
      await finance.db.entry.findMany({ where: { accountId: account.id, kind: "transaction" }, orderBy: [{ date: "desc" }, { id: "desc" }] })
    ).map((row) => row.id);
    const where = transactionFilterSql(actor.familyId, TransactionListQuerySchema.parse({}), []);
    const total = await countTransactions(finance.db, where);
    expect(total).toBe(57);
    const strategies = {
      collect: { selective: 1_000, checkpointEvery: 10 },
      walk: { selective: 0, checkpointEvery: 1_000 },
      checkpoints: { selective: 0, checkpointEvery: 10 },
    };
    for (const [name, tuning] of Object.entries(strategies)) {
      for (const perPage of [1, 7, 10, 25]) {
        for (let page = 1; page <= Math.ceil(57 / perPage) + 1; page++) {
          const window = { skip: (page - 1) * perPage, take: perPage };
          const ids = await pageIds(finance.db, where, window, total, () => checkpointsOf(finance.db, where, tuning.checkpointEvery), tuning);
          expect(ids, `${name}, page ${page} of ${perPage}`).toEqual(expected.slice(window.skip, window.skip + perPage));
        }
      }
    }
    // Through the procedure: the last page of 25 holds the 7 oldest.
    const last = await call("transactions.list", PageQuerySchema.parse({ page: 3 }));
    expect(last.transactions.map((t: { id: string }) => t.id)).toEqual(expected.slice(50));
  });
});
