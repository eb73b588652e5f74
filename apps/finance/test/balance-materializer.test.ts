import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { materializeBalances } from "../src/balances/balance-materializer";
import { randomSource } from "@hearth/demo-seed";
import { financeAs, newActor, settled, startFinance, type RunningFinance } from "./support";

let finance: RunningFinance;

beforeAll(async () => {
  finance = await startFinance();
});
afterAll(async () => finance?.stop());

async function storedRows(accountId: string) {
  const rows = await finance.db.balance.findMany({ where: { accountId }, orderBy: { date: "asc" } });
  return rows.map(({ id: _id, createdAt: _c, updatedAt: _u, ...row }) => row);
}

describe("the balance materializer", () => {
  it("stores after an incremental run exactly the rows a full run stores, through backdated, moved and deleted entries", async () => {
    const actor = newActor();
    const call = financeAs(finance, actor);
    const account = await call("accounts.create", { account: { name: "Card", account_type: "credit_card", balance: 120, opening_balance_date: "2026-01-01" } });
    await settled(finance);
    const random = randomSource(3);
    const day = () => `2026-0${random.int(1, 9)}-${String(random.int(1, 28)).padStart(2, "0")}`;
    const add = (date: string, kind: "transaction" | "valuation" = "transaction") =>
      finance.db.entry.create({
        data: {
          familyId: actor.familyId,
          accountId: account.id,
          kind,
          date: new Date(`${date}T00:00:00Z`),
          name: "x",
          amountCents: BigInt(random.int(-5000, 9000)),
          currency: "USD",
        },
      });
    for (let i = 0; i < 60; i++) await add(day(), i % 15 === 0 ? "valuation" : "transaction");
    await materializeBalances(finance.db, account.id, null);

    for (let round = 0; round < 5; round++) {
      // A change: a backdated entry, a moved one and a deleted one; the window starts at the earliest day touched.
      const backdated = day();
      await add(backdated);
      const [moved, removed] = await finance.db.entry.findMany({ where: { accountId: account.id, valuationKind: null }, take: 2, skip: round });
      const target = day();
      await finance.db.entry.update({ where: { id: moved!.id }, data: { date: new Date(`${target}T00:00:00Z`) } });
      await finance.db.entry.delete({ where: { id: removed!.id } });
      const touched = [backdated, target, moved!.date.toISOString().slice(0, 10), removed!.date.toISOString().slice(0, 10)].sort()[0]!;
      await materializeBalances(finance.db, account.id, touched);
      const incremental = await storedRows(account.id);

      await finance.db.balance.deleteMany({ where: { accountId: account.id } });
      await materializeBalances(finance.db, account.id, null);
      expect(incremental, `round ${round}, window from ${touched}`).toEqual(await storedRows(account.id));
    }
    const account_ = await finance.db.account.findUniqueOrThrow({ where: { id: account.id } });
    const last = (await storedRows(account.id)).at(-1)!;
    expect(account_.balanceCents).toBe(last.endCashCents + last.endNonCashCents);
  });
});
