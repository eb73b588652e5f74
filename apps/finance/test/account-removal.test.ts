import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { AppError } from "@hearth/contracts";
import { eventually, expectAppError, financeAs, newActor, settled, startFinance, type RunningFinance } from "./support";

let finance: RunningFinance;

beforeAll(async () => {
  finance = await startFinance();
});
afterAll(async () => finance?.stop());

/** Waits until `count` statements of this database wait for a row lock. */
async function lockWaiters(count: number) {
  await eventually(async () => {
    const [row] = await finance.db.$queryRaw<{ waiting: bigint }[]>`
      SELECT count(*) AS waiting FROM pg_stat_activity WHERE datname = current_database() AND wait_event_type = 'Lock'`;
    expect(Number(row!.waiting)).toBe(count);
  });
}

describe("removing an account", () => {
  it("is never undone by a PATCH that read the account before the DELETE committed", async () => {
    const call = financeAs(finance, newActor());
    const account = await call("accounts.create", { account: { name: "Closing", account_type: "depository", balance: 10 } });
    await settled(finance);

    // Hold the account's row, so the DELETE and then the PATCH (which has already read it as active) queue behind it.
    let release!: () => void;
    let locked!: () => void;
    const lockTaken = new Promise<void>((resolve) => (locked = resolve));
    const holder = finance.db.$transaction(
      async (tx) => {
        await tx.$queryRaw`SELECT id FROM accounts WHERE id = ${account.id}::uuid FOR UPDATE`;
        locked();
        await new Promise<void>((resolve) => (release = resolve));
      },
      { timeout: 30_000 },
    );
    await lockTaken;
    const deleting = call("accounts.delete", { id: account.id });
    await lockWaiters(1);
    const patching = call("accounts.update", { id: account.id, account: { status: "active" } });
    patching.catch(() => undefined);
    await lockWaiters(2);
    release();
    await holder;

    expect(await deleting).toEqual({ message: "Account scheduled for deletion" });
    await expectAppError(patching, "record_not_found");
    await expectAppError(call("accounts.get", { id: account.id, include_disabled: true }), "record_not_found");
    await settled(finance);
    expect(await finance.db.account.count({ where: { id: account.id } })).toBe(0);
  });

  it("wins every race against a PATCH re-enabling the account", async () => {
    const actor = newActor();
    const call = financeAs(finance, actor);
    for (let round = 0; round < 20; round++) {
      const account = await call("accounts.create", { account: { name: `Round ${round}`, account_type: "depository", status: "draft" } });
      const [patched, deleted] = await Promise.allSettled([
        call("accounts.update", { id: account.id, account: { status: "active", name: `Renamed ${round}` } }),
        call("accounts.delete", { id: account.id }),
      ]);
      expect(deleted).toEqual({ status: "fulfilled", value: { message: "Account scheduled for deletion" } });
      if (patched.status === "rejected") {
        expect(patched.reason).toBeInstanceOf(AppError);
        expect((patched.reason as AppError).code).toBe("record_not_found");
      }
      await expectAppError(call("accounts.get", { id: account.id, include_disabled: true }), "record_not_found");
    }
    await settled(finance);
    expect(await finance.db.account.count({ where: { familyId: actor.familyId } })).toBe(0);
    expect((await call("accounts.list", { include_disabled: true })).accounts).toEqual([]);
  });

  it("turns the other side of each of its transfers into an ordinary transaction, and removes the transfers", async () => {
    const actor = newActor();
    const call = financeAs(finance, actor);
    const open = (name: string, account_type: string) =>
      call("accounts.create", { account: { name, account_type, balance: 500, opening_balance_date: "2026-01-01" } });
    const checking = await open("Checking", "depository");
    const savings = await open("Savings", "depository");
    const card = await open("Card", "credit_card");
    const toSavings = await call("transfers.create", {
      transfer: { from_account_id: checking.id, to_account_id: savings.id, amount: 100, date: "2026-02-01" },
    });
    const fromSavings = await call("transfers.create", {
      transfer: { from_account_id: savings.id, to_account_id: checking.id, amount: 40, date: "2026-02-03" },
    });
    const toCard = await call("transfers.create", { transfer: { from_account_id: checking.id, to_account_id: card.id, amount: 60, date: "2026-02-05" } });
    // A pair the matcher proposes: out of savings, into checking.
    await call("transactions.create", { transaction: { account_id: savings.id, date: "2026-03-01", amount: 25, name: "Move" } });
    const matchedIn = await call("transactions.create", { transaction: { account_id: checking.id, date: "2026-03-02", amount: -25, name: "Move in" } });
    await settled(finance);
    const proposed = (await call("transfers.list", { status: "pending" })).transfers;
    expect(proposed).toHaveLength(1);
    expect((await call("transactions.get", { id: matchedIn.body.id })).kind).toBe("funds_movement");

    await call("accounts.delete", { id: savings.id });
    await settled(finance);

    for (const id of [toSavings.outflow_transaction.id, fromSavings.inflow_transaction.id, matchedIn.body.id]) {
      expect(await call("transactions.get", { id })).toMatchObject({ kind: "standard", transfer: null });
    }
    // Transfers between the remaining accounts keep their kinds.
    expect((await call("transactions.get", { id: toCard.outflow_transaction.id })).kind).toBe("cc_payment");
    expect((await call("transfers.list", {})).transfers.map((transfer: { id: string }) => transfer.id)).toEqual([toCard.id]);
    expect(await finance.db.transfer.count({ where: { familyId: actor.familyId } })).toBe(1);
  });
});
