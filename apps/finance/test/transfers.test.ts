import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { TransferSchema } from "@hearth/contracts";
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
    expect(transfer).toMatchObject({
      status: "confirmed",
      transfer_type: "liability_payment",
      amount: "$200.00",
      amount_cents: 20000,
      currency: "USD",
      date: "2026-02-01",
      notes: "March bill",
      source_fee_amount: "$1.50",
      source_fee_amount_cents: 150,
      destination_fee_amount: "$0.50",
      destination_fee_amount_cents: 50,
      outflow_transaction: { amount_cents: 20150, kind: "cc_payment", account: { id: checking.id } },
      inflow_transaction: { amount_cents: -19950, kind: "funds_movement", account: { id: card.id } },
    });
    await settled(finance);
    expect((await call("accounts.get", { id: checking.id })).balance_cents).toBe(100000 - 20150);
    // A payment lowers what is owed on the card.
    expect((await call("accounts.get", { id: card.id })).balance_cents).toBe(30000 - 19950);
    const side = await call("transactions.get", { id: transfer.outflow_transaction.id });
    expect(side.transfer).toMatchObject({ id: transfer.id, amount: "$200.00", amount_cents: 20000, other_account: { id: card.id } });
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
    expect(transfer).toMatchObject({ currency: "USD", amount_cents: 10000, inflow_transaction: { amount_cents: -9000, currency: "EUR" } });
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
});
