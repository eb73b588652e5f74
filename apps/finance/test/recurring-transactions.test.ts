import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { RecurringTransactionCollectionSchema, RecurringTransactionSchema, type Actor, type RecurringTransaction } from "@hearth/contracts";
import { expectAppError, financeAs, newActor, startFinance, type RunningFinance } from "./support";

// The API cases mirror Sure's test/controllers/api/v1/recurring_transactions_controller_test.rb
// (named in each case) and spec/requests/api/v1/recurring_transactions_spec.rb.

let finance: RunningFinance;

beforeAll(async () => {
  finance = await startFinance();
});
afterAll(async () => finance?.stop());

/** A family with a checking account and a merchant, as Sure's controller test sets up. */
async function family(actor: Actor = newActor()) {
  const call = financeAs(finance, actor);
  const account = await call("accounts.create", {
    account: { name: "Checking", account_type: "depository", balance: 1000, opening_balance_date: "2026-01-01" },
  });
  const merchant = await call("merchants.create", { merchant: { name: "Streaming Service" } });
  const as = {
    list: (query: Record<string, unknown> = {}) => call("recurringTransactions.list", query) as Promise<{ recurring_transactions: RecurringTransaction[] }>,
    get: (id: string) => call("recurringTransactions.get", { id }) as Promise<RecurringTransaction>,
    create: (fields: Record<string, unknown>) => call("recurringTransactions.create", { recurring_transaction: fields }) as Promise<RecurringTransaction>,
    update: (id: string, fields: Record<string, unknown>) =>
      call("recurringTransactions.update", { id, recurring_transaction: fields }) as Promise<RecurringTransaction>,
    delete: (id: string) => call("recurringTransactions.delete", { id }) as Promise<{ message: string }>,
  };
  /** Sure's valid_recurring_transaction_params. */
  const valid = (overrides: Record<string, unknown> = {}) => ({
    account_id: account.id,
    name: "Gym Membership",
    amount: 49.99,
    currency: "USD",
    expected_day_of_month: 1,
    last_occurrence_date: "2026-04-01",
    next_expected_date: "2026-05-01",
    status: "active",
    occurrence_count: 1,
    ...overrides,
  });
  /** Sure's setup row: manual, merchant-based, 19.99 on the 15th. */
  const seeded = () =>
    as.create({
      account_id: account.id,
      merchant_id: merchant.id,
      amount: 19.99,
      currency: "USD",
      expected_day_of_month: 15,
      last_occurrence_date: "2026-04-15",
      next_expected_date: "2026-05-15",
      status: "active",
      occurrence_count: 3,
      manual: true,
    });
  return { actor, call, account, merchant, as, valid, seeded };
}

describe("recurring transactions: create", () => {
  it("creates a manual recurring transaction under the caller's family (should create recurring transaction)", async () => {
    const { actor, as, valid, account } = await family();
    const created = RecurringTransactionSchema.parse(await as.create(valid()));
    expect(created).toMatchObject({
      name: "Gym Membership",
      amount: "$49.99",
      amount_cents: 4999,
      currency: "USD",
      expected_day_of_month: 1,
      last_occurrence_date: "2026-04-01",
      next_expected_date: "2026-05-01",
      status: "active",
      occurrence_count: 1,
      manual: true,
      expected_amount_min: null,
      expected_amount_min_cents: null,
      account: { id: account.id, name: "Checking", account_type: "depository" },
      merchant: null,
    });
    const row = await finance.db.recurringTransaction.findUniqueOrThrow({ where: { id: created.id } });
    expect(row.familyId).toBe(actor.familyId);
    expect(row.amountCents).toBe(4999n);
  });

  it("defaults a null manual to true and keeps an explicit false (should default null manual to true)", async () => {
    const { as, valid } = await family();
    expect((await as.create(valid({ manual: null }))).manual).toBe(true);
    expect((await as.create(valid({ name: "Other", manual: false }))).manual).toBe(false);
  });

  it("shows the expected amounts as money pairs, and the account and merchant (should show recurring transaction)", async () => {
    const { as, account, merchant, seeded } = await family();
    const created = await seeded();
    const shown = RecurringTransactionSchema.parse(await as.get(created.id));
    expect(shown).toMatchObject({
      id: created.id,
      amount_cents: 1999,
      account: { id: account.id },
      merchant: { id: merchant.id, name: "Streaming Service" },
      name: null,
    });
    for (const key of ["expected_amount_min_cents", "expected_amount_max_cents", "expected_amount_avg_cents"]) expect(shown).toHaveProperty(key);

    const varied = await as.create({
      merchant_id: merchant.id,
      amount: "-1000",
      currency: "usd",
      expected_day_of_month: "16",
      last_occurrence_date: "2026-04-16",
      next_expected_date: "2026-05-16",
      expected_amount_min: "-1200.5",
      expected_amount_max: -900,
      expected_amount_avg: "-1000.25",
    });
    // Income is negative, as Sure stores it; no account is a valid recurring transaction.
    expect(varied).toMatchObject({
      amount: "-$1,000.00",
      amount_cents: -100000,
      currency: "USD",
      expected_day_of_month: 16,
      expected_amount_min: "-$1,200.50",
      expected_amount_min_cents: -120050,
      expected_amount_max_cents: -90000,
      expected_amount_avg: "-$1,000.25",
      account: null,
    });
  });

  it("refuses missing dates, a nil status and a negative count with Sure's messages", async () => {
    const { as, valid } = await family();
    // should reject create without required dates
    const dates = await expectAppError(as.create(valid({ last_occurrence_date: undefined, next_expected_date: undefined })), "validation_failed");
    expect(dates.errors).toEqual(expect.arrayContaining(["Last occurrence date can't be blank", "Next expected date can't be blank"]));
    // should reject create with nil status
    expect((await expectAppError(as.create(valid({ status: null })), "validation_failed")).errors).toContain("Status can't be blank");
    // should reject create with negative occurrence count
    expect((await expectAppError(as.create(valid({ occurrence_count: -1 })), "validation_failed")).errors).toContain(
      "Occurrence count must be greater than or equal to 0",
    );
    // should reject create without name or merchant (Sure's base error, listed with any others)
    const nameless = await expectAppError(as.create(valid({ name: undefined, status: "paused" })), "validation_failed");
    expect(nameless.errors).toEqual(expect.arrayContaining(["Either merchant or name must be present", "Status is not included in the list"]));
    expect((await expectAppError(as.create(valid({ name: "   " })), "validation_failed")).errors).toContain("Either merchant or name must be present");
    expect((await as.list()).recurring_transactions).toHaveLength(0);
  });

  it("refuses a body without its recurring_transaction object (should reject create without recurring transaction wrapper)", async () => {
    const { call } = await family();
    const error = await expectAppError(call("recurringTransactions.create", { name: "Gym Membership" }), "validation_failed");
    expect(error.errors).toEqual(["recurring_transaction is required"]);
  });

  it("answers record_not_found for a malformed, unknown or another family's account or merchant", async () => {
    const { as, valid } = await family();
    const other = await family();
    // should reject create with malformed account id / malformed merchant id
    expect((await expectAppError(as.create(valid({ account_id: "not-a-uuid" })), "record_not_found")).message).toBe("Account not found");
    expect((await expectAppError(as.create(valid({ name: undefined, merchant_id: "not-a-uuid" })), "record_not_found")).message).toBe("Merchant not found");
    expect((await expectAppError(as.create(valid({ account_id: randomUUID() })), "record_not_found")).message).toBe("Account not found");
    // should not create recurring transaction for another family account
    await expectAppError(as.create(valid({ account_id: other.account.id })), "record_not_found");
    expect((await expectAppError(as.create(valid({ merchant_id: other.merchant.id })), "record_not_found")).message).toBe("Merchant not found");
    expect(await finance.db.recurringTransaction.count({ where: { merchantId: other.merchant.id } })).toBe(0);
    // Blank references are none, as Sure's `return nil if account_id.blank?`.
    expect((await as.create(valid({ account_id: "", merchant_id: null }))).account).toBeNull();
  });

  it("answers 409 conflict for the same account, merchant or name, amount and currency (should return conflict when creating duplicate recurring transaction)", async () => {
    const { as, account, merchant, seeded, valid } = await family();
    await seeded();
    // The identity ignores dates and day: only family, account, merchant, amount and currency.
    const duplicate = await expectAppError(
      as.create({
        account_id: account.id,
        merchant_id: merchant.id,
        amount: "19.99",
        currency: "USD",
        expected_day_of_month: 15,
        last_occurrence_date: "2026-04-15",
        next_expected_date: "2026-05-15",
      }),
      "conflict",
    );
    expect(duplicate.message).toBe("Recurring transaction already exists");

    await as.create(valid());
    expect((await expectAppError(as.create(valid({ expected_day_of_month: 20, status: "inactive" })), "conflict")).message).toBe(
      "Recurring transaction already exists",
    );
    // Another amount, currency, account or name is another recurring transaction.
    await as.create(valid({ amount: "49.98" }));
    await as.create(valid({ currency: "EUR" }));
    await as.create(valid({ account_id: null }));
    await as.create(valid({ name: "Gym membership" }));
    expect((await as.list()).recurring_transactions).toHaveLength(6);
    // Rows without an account collide too (Sure's NULL account ids would not).
    await expectAppError(as.create(valid({ account_id: null })), "conflict");
    // The same identity in another family is no conflict.
    const other = await family();
    await expect(other.as.create(other.valid())).resolves.toMatchObject({ name: "Gym Membership" });
  });

  it("refuses hostile input with a 422, never an internal error", async () => {
    const { as, valid, call } = await family();
    const refused: Record<string, unknown>[] = [
      { name: "x".repeat(501) },
      { name: "Nul\u0000Name" },
      { amount: "9".repeat(100) },
      { amount: 1e300 },
      { amount: "12.345" }, // more decimals than USD has
      { amount: "ten" },
      { amount: "" },
      { currency: "XXZ" },
      { currency: "" },
      { expected_day_of_month: 0 },
      { expected_day_of_month: 32 },
      { expected_day_of_month: 1.5 },
      { expected_day_of_month: "abc" },
      { expected_day_of_month: 1e300 },
      { last_occurrence_date: "1969-12-31" },
      { next_expected_date: "2100-01-01" },
      { next_expected_date: "2026-02-30" },
      { occurrence_count: 2 ** 31 },
      { status: "paused" },
      { manual: "maybe" },
      { expected_amount_min: "100", expected_amount_max: "50" },
    ];
    for (const fields of refused) await expectAppError(as.create(valid(fields)), "validation_failed");
    // A JPY amount has no minor unit digits.
    await expectAppError(as.create(valid({ currency: "JPY", amount: "1.5" })), "validation_failed");
    await expectAppError(call("recurringTransactions.create", { recurring_transaction: "nope" }), "validation_failed");
    expect((await as.list()).recurring_transactions).toHaveLength(0);
    // An inverted range is fine on an automatic row (Sure checks it for manual ones only).
    await expect(as.create(valid({ manual: false, expected_amount_min: "100", expected_amount_max: "50" }))).resolves.toMatchObject({
      expected_amount_min_cents: 10000,
    });
  });
});

describe("recurring transactions: list", () => {
  it("lists the family's rows, active first then by next expected date, with Sure's pagination (should list recurring transactions)", async () => {
    const { as, valid, account } = await family();
    const later = await as.create(valid({ name: "Later", next_expected_date: "2026-06-01" }));
    const sooner = await as.create(valid({ name: "Sooner", next_expected_date: "2026-05-01" }));
    const stopped = await as.create(valid({ name: "Stopped", status: "inactive", next_expected_date: "2026-01-01" }));
    const loose = await as.create(valid({ name: "Loose", account_id: null, next_expected_date: "2026-07-01" }));

    const all = RecurringTransactionCollectionSchema.parse(await as.list());
    expect(all.recurring_transactions.map((row) => row.id)).toEqual([sooner.id, later.id, loose.id, stopped.id]);
    expect(all.pagination).toEqual({ page: 1, per_page: 25, total_count: 4, total_pages: 1 });

    const page = RecurringTransactionCollectionSchema.parse(await as.list({ page: 2, per_page: 3 }));
    expect(page.recurring_transactions.map((row) => row.id)).toEqual([stopped.id]);
    expect(page.pagination).toEqual({ page: 2, per_page: 3, total_count: 4, total_pages: 2 });

    expect((await as.list({ status: "inactive" })).recurring_transactions.map((row) => row.id)).toEqual([stopped.id]);
    expect((await as.list({ account_id: account.id, status: "active" })).recurring_transactions.map((row) => row.id)).toEqual([sooner.id, later.id]);
    expect((await as.list({ account_id: randomUUID() })).recurring_transactions).toEqual([]);
  });

  it("refuses a malformed account filter or status and an absurd page, and clamps per_page (should reject malformed account filter)", async () => {
    const { as, valid } = await family();
    await as.create(valid());
    await expectAppError(as.list({ account_id: "not-a-uuid" }), "validation_failed");
    await expectAppError(as.list({ status: "paused" }), "validation_failed");
    await expectAppError(as.list({ page: "1e300" }), "validation_failed");
    await expectAppError(as.list({ page: -1 }), "validation_failed");
    const clamped = RecurringTransactionCollectionSchema.parse(await as.list({ per_page: 1000, page: 1_000_000 }));
    expect(clamped.pagination).toMatchObject({ page: 1_000_000, per_page: 100, total_count: 1 });
    expect(clamped.recurring_transactions).toEqual([]);
  });

  it("hides a row whose account is being deleted, as Sure deletes it with the account", async () => {
    const { as, valid, call, account } = await family();
    const row = await as.create(valid());
    await call("accounts.delete", { id: account.id });
    expect((await as.list()).recurring_transactions).toEqual([]);
    await expectAppError(as.get(row.id), "record_not_found");
  });
});

describe("recurring transactions: update and delete", () => {
  it("updates status, expected day and next expected date (should update recurring transaction)", async () => {
    const { as, seeded } = await family();
    const created = await seeded();
    const updated = await as.update(created.id, { status: "inactive", expected_day_of_month: 16 });
    expect(updated).toMatchObject({ id: created.id, status: "inactive", expected_day_of_month: 16, next_expected_date: "2026-05-15" });
    expect(await as.update(created.id, { next_expected_date: "2026-06-16" })).toMatchObject({ status: "inactive", next_expected_date: "2026-06-16" });
    expect(await as.get(created.id)).toMatchObject({ status: "inactive", expected_day_of_month: 16, next_expected_date: "2026-06-16" });
  });

  it("ignores internal fields (should ignore internal fields on update)", async () => {
    const { as, seeded } = await family();
    const created = await seeded();
    await as.update(created.id, { status: "inactive", occurrence_count: 99, manual: false, amount: 1.23 });
    const row = await finance.db.recurringTransaction.findUniqueOrThrow({ where: { id: created.id } });
    expect(row).toMatchObject({ status: "inactive", occurrenceCount: 3, manual: true, amountCents: 1999n });
  });

  it("refuses invalid changes with Sure's messages and changes nothing", async () => {
    const { as, seeded, call } = await family();
    const created = await seeded();
    // should reject update with invalid status / nil status / nil next expected date / invalid update
    expect((await expectAppError(as.update(created.id, { status: "paused" }), "validation_failed")).errors).toEqual(["Status is not included in the list"]);
    expect((await expectAppError(as.update(created.id, { status: null }), "validation_failed")).errors).toEqual(["Status can't be blank"]);
    expect((await expectAppError(as.update(created.id, { next_expected_date: null }), "validation_failed")).errors).toEqual([
      "Next expected date can't be blank",
    ]);
    expect((await expectAppError(as.update(created.id, { expected_day_of_month: 32 }), "validation_failed")).errors).toEqual([
      "Expected day of month must be less than or equal to 31",
    ]);
    await expectAppError(as.update(created.id, { expected_day_of_month: 0 }), "validation_failed");
    await expectAppError(as.update(created.id, { next_expected_date: "1800-01-01" }), "validation_failed");
    await expectAppError(as.update(created.id, {}), "validation_failed");
    // should reject update without recurring transaction wrapper
    await expectAppError(call("recurringTransactions.update", { id: created.id, status: "inactive" }), "validation_failed");
    expect(await as.get(created.id)).toEqual(created);
  });

  it("deletes with Sure's message; a missing one is record_not_found (should destroy recurring transaction)", async () => {
    const { as, seeded } = await family();
    const created = await seeded();
    expect(await as.delete(created.id)).toEqual({ message: "Recurring transaction deleted successfully" });
    await expectAppError(as.get(created.id), "record_not_found");
    await expectAppError(as.delete(created.id), "record_not_found");
    // should return not found when updating missing recurring transaction / for missing recurring transaction
    await expectAppError(as.update(randomUUID(), { status: "inactive" }), "record_not_found");
    await expectAppError(as.get(randomUUID()), "record_not_found");
  });
});

describe("recurring transactions: access", () => {
  it("answers record_not_found to another family for get, update and delete, and leaves the row as it was", async () => {
    const alice = await family();
    const bob = await family();
    const row = await alice.seeded();
    await expectAppError(bob.as.get(row.id), "record_not_found");
    await expectAppError(bob.as.update(row.id, { status: "inactive" }), "record_not_found");
    await expectAppError(bob.as.delete(row.id), "record_not_found");
    expect((await bob.as.list()).recurring_transactions).toEqual([]);
    expect(await alice.as.get(row.id)).toEqual(row);
  });

  it("lets a read-only key read but not write (should reject create/update/destroy with read-only API key)", async () => {
    const owner = await family();
    const row = await owner.seeded();
    const reader = financeAs(finance, { ...owner.actor, userId: randomUUID(), scopes: ["read"], authMethod: "api_key" });
    expect(await reader("recurringTransactions.get", { id: row.id })).toEqual(row);
    expect((await reader("recurringTransactions.list")).recurring_transactions).toHaveLength(1);
    await expectAppError(reader("recurringTransactions.create", { recurring_transaction: owner.valid() }), "insufficient_scope");
    await expectAppError(reader("recurringTransactions.update", { id: row.id, recurring_transaction: { status: "inactive" } }), "insufficient_scope");
    await expectAppError(reader("recurringTransactions.delete", { id: row.id }), "insufficient_scope");
    expect(await owner.as.get(row.id)).toEqual(row);
  });
});
