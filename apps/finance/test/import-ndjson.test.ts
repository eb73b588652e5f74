// The pure reader of Sure's NDJSON export (SureImport): what Hearth's export writer writes and
// what Sure's exporter writes, read back into typed records, checked as Sure's
// SureImport::Preflight checks them (sure_import_test.rb, family/data_importer_test.rb).
import { describe, expect, it } from "vitest";
import { ImportParseError } from "../src/imports/parsing/import-parse-error";
import { NdjsonContentError, preflightSureNdjson, readSureNdjson, SURE_NDJSON_LIMITS, type SureNdjsonReadResult } from "../src/imports/ndjson";
import { threadCpuMs } from "./event-loop";

/** Sure's build_ndjson: records.map(&:to_json).join("\n"). */
const ndjson = (records: unknown[]): string => records.map((record) => JSON.stringify(record)).join("\n");

/** The error `run` rejects with (the test fails when it rejects with none). */
async function thrownBy(run: () => Promise<unknown>): Promise<Error & { code?: string; errors?: string[] }> {
  try {
    await run();
  } catch (err) {
    return err as Error & { code?: string };
  }
  throw new Error("expected a throw");
}

const codesOf = (result: { errors: { code: string }[] }) => result.errors.map((error) => error.code);

/** Sure's minimal valid account (sure_import_test.rb's "uuid-1"). */
const account = (id = "uuid-1", extra: Record<string, unknown> = {}) => ({
  type: "Account",
  data: { id, name: `Account ${id}`, balance: "1000", currency: "USD", accountable_type: "Depository", ...extra },
});

// Hearth's own all.ndjson, read back: the real round trip (seed, export through PostgreSQL,
// import, export again) is test/import-sure-ndjson.test.ts; the writer formats rows in SQL, so no
// stand-in database can feed it here.

describe("Sure's records (family/data_importer_test.rb)", () => {
  // "full import scenario with all entity types"
  const fullScenario = [
    account("acct-main", { name: "Main Checking", balance: "5000" }),
    { type: "Category", data: { id: "cat-food", name: "Food", color: "#FF5733", classification: "expense" } },
    { type: "Tag", data: { id: "tag-weekly", name: "Weekly" } },
    { type: "Merchant", data: { id: "merchant-1", name: "Local Grocery" } },
    {
      type: "RecurringTransaction",
      data: {
        id: "recurring-grocery",
        account_id: "acct-main",
        merchant_id: "merchant-1",
        amount: "-75.50",
        currency: "USD",
        expected_day_of_month: 15,
        last_occurrence_date: "2024-01-15",
        next_expected_date: "2024-02-15",
        status: "active",
        occurrence_count: 3,
        manual: false,
      },
    },
    {
      type: "Transaction",
      data: {
        id: "txn-1",
        account_id: "acct-main",
        date: "2024-01-15",
        amount: "-75.50",
        name: "Weekly groceries",
        currency: "USD",
        category_id: "cat-food",
        merchant_id: "merchant-1",
        tag_ids: ["tag-weekly"],
      },
    },
    {
      type: "Budget",
      data: { id: "budget-jan", start_date: "2024-01-01", end_date: "2024-01-31", budgeted_spending: "2000", expected_income: "4000", currency: "USD" },
    },
    { type: "BudgetCategory", data: { id: "bc-food", budget_id: "budget-jan", category_id: "cat-food", budgeted_spending: "500", currency: "USD" } },
    {
      type: "Rule",
      version: 1,
      data: {
        id: "rule-1",
        name: "Auto-tag groceries",
        resource_type: "transaction",
        active: true,
        conditions: [{ condition_type: "transaction_name", operator: "like", value: "grocery" }],
        actions: [{ action_type: "set_transaction_tags", value: "Weekly" }],
      },
    },
  ];

  it("reads the full import scenario with every relationship linked", async () => {
    const result = await readSureNdjson(ndjson(fullScenario));
    expect(result.errors).toEqual([]);
    const { records } = result;
    expect(records.Account[0]).toMatchObject({ source_id: "acct-main", balance_cents: 500000n, account_type: "depository", status: "active" });
    expect(records.Category[0]).toMatchObject({ color: "#FF5733", classification: "expense" });
    expect(records.Tag[0]).toMatchObject({ name: "Weekly", color: null });
    expect(records.RecurringTransaction[0]).toMatchObject({ amount_cents: -7550n, manual: false, status: "active" });
    expect(records.Transaction[0]).toMatchObject({ amount_cents: -7550n, category_id: "cat-food", merchant_id: "merchant-1", tag_ids: ["tag-weekly"] });
    expect(records.Budget[0]).toMatchObject({ budgeted_spending_cents: 200000n, expected_income_cents: 400000n });
    expect(records.BudgetCategory[0]).toMatchObject({ budgeted_spending_cents: 50000n, currency: "USD" });
    expect(records.Rule[0]!.actions[0]).toMatchObject({ action_type: "set_transaction_tags", operand: "Weekly" });
  });

  it("reads balances, trades, holdings and valuations as Sure writes them", async () => {
    const result = await readSureNdjson(
      ndjson([
        account("acct-1", { accountable_type: "Investment", balance: "10000" }),
        // "imports raw balance history records"
        {
          type: "Balance",
          data: {
            id: "balance-1",
            account_id: "acct-1",
            date: "2024-01-31",
            balance: "1200.00",
            currency: "USD",
            cash_balance: "1100.00",
            start_cash_balance: "1000.00",
            cash_inflows: "300.00",
            cash_outflows: "200.00",
            flows_factor: -1,
          },
        },
        // "imports trades with securities"
        {
          type: "Trade",
          data: { id: "trade-1", account_id: "acct-1", date: "2024-01-15", ticker: "aapl", qty: "10", price: "150.00", amount: "-1500.00", currency: "USD" },
        },
        // "imports holding snapshots with security identity"
        {
          type: "Holding",
          data: {
            id: "holding-1",
            account_id: "acct-1",
            security_id: "security-1",
            ticker: "VTI",
            security_name: "Vanguard Total Stock Market ETF",
            exchange_operating_mic: "ARCX",
            country_code: "US",
            date: "2024-01-15",
            qty: "100",
            price: "250.25",
            amount: "25025.00",
            currency: "USD",
            cost_basis: "200.00",
            cost_basis_source: "manual",
            cost_basis_locked: true,
            security_locked: true,
          },
        },
        // "imports unknown valuation kinds as reconciliations"
        {
          type: "Valuation",
          data: { id: "val-1", account_id: "acct-1", date: "2024-06-15", amount: "520000", name: "Updated valuation", kind: "legacy_unknown_kind" },
        },
      ]),
    );
    expect(result.errors).toEqual([]);
    expect(result.records.Balance[0]).toMatchObject({
      balance_cents: 120000n,
      cash_balance_cents: 110000n,
      cash_inflows_cents: 30000n,
      non_cash_inflows_cents: null,
      flows_factor: -1,
    });
    expect(result.records.Trade[0]).toMatchObject({ ticker: "AAPL", qty: "10", price: "150", amount_cents: -150000n, security_id: null });
    expect(result.records.Holding[0]).toMatchObject({
      security_id: "security-1",
      exchange_operating_mic: "ARCX",
      cost_basis: "200",
      cost_basis_source: "manual",
      cost_basis_locked: true,
      security_locked: true,
      amount_cents: 2502500n,
    });
    expect(result.records.Valuation[0]).toMatchObject({ amount_cents: 52000000n, currency: "USD", kind: "reconciliation", name: "Updated valuation" });
  });

  // "imports non-destructive account status from ndjson" / "does not import pending deletion account status"
  it("reads account statuses as Sure imports them: pending deletion becomes active", async () => {
    const { records } = await readSureNdjson(ndjson([account("a", { status: "disabled" }), account("b", { status: "pending_deletion" })]));
    expect(records.Account.map((a) => a.status)).toEqual(["disabled", "active"]);
  });

  // "imports native split lines and lets transfers reference split children"
  it("reads split lines and lets a transfer name a split child", async () => {
    const result = await readSureNdjson(
      ndjson([
        account("checking"),
        account("wallet"),
        { type: "Category", data: { id: "cat-fee", name: "Bank Fees", color: "#FF0000", classification: "expense" } },
        { type: "Tag", data: { id: "tag-imported", name: "Imported" } },
        {
          type: "Transaction",
          data: {
            id: "split-parent",
            account_id: "checking",
            date: "2024-01-15",
            amount: "104.00",
            name: "ATM withdrawal plus fee",
            tag_ids: ["tag-imported"],
            splitLines: [
              { id: "split-transfer-leg", amount: "100.00", memo: "Cash movement", notes: "Transfer portion" },
              { id: "split-fee-line", amount_money: 4, name: "ATM fee", category_id: "cat-fee", tag_ids: [] },
            ],
          },
        },
        { type: "Transaction", data: { id: "wallet-in", account_id: "wallet", date: "2024-01-15", amount: "-100.00" } },
        { type: "Transfer", data: { inflow_transaction_id: "wallet-in", outflow_transaction_id: "split-transfer-leg", status: "mystery" } },
      ]),
    );
    expect(result.errors).toEqual([]);
    const [parent] = result.records.Transaction;
    expect(parent!.split_lines).toEqual([
      {
        source_id: "split-transfer-leg",
        amount_cents: 10000n,
        name: "Cash movement",
        category_id: null,
        merchant_id: null,
        merchant_id_provided: false,
        notes: "Transfer portion",
        excluded: false,
        tag_ids: null,
        kind: null,
      },
      {
        source_id: "split-fee-line",
        amount_cents: 400n,
        name: "ATM fee",
        category_id: "cat-fee",
        merchant_id: null,
        merchant_id_provided: false,
        notes: null,
        excluded: false,
        tag_ids: [],
        kind: null,
      },
    ]);
    expect(result.records.Transfer[0]).toMatchObject({ outflow_transaction_id: "split-transfer-leg", status: "pending" });
  });

  // "imports rules from normalized operand value refs", "... when legacy operand values are stale UUIDs",
  // "preserves explicit false rule operand values", "imports rules with compound conditions"
  it("reads rule operands as Sure's rule_operand_value does", async () => {
    const stale = "0195b9a2-1111-7111-8111-111111111111";
    const result = await readSureNdjson(
      ndjson([
        {
          type: "Rule",
          version: 1,
          data: {
            id: "rule-1",
            name: "Map",
            active: true,
            conditions: [
              { condition_type: "transaction_merchant", operator: "=", value_ref: { type: "Merchant", id: "m", name: "Coffee Bar" } },
              { condition_type: "transaction_merchant", operator: "=", value: stale, value_ref: { type: "Merchant", id: stale, name: "Coffee Bar" } },
              { condition_type: "transaction_amount", operator: ">", value: 100 },
              {
                condition_type: "compound",
                operator: "or",
                sub_conditions: [
                  { condition_type: "transaction_name", operator: "like", value: "walmart" },
                  { condition_type: "transaction_name", operator: "like", value: "target" },
                ],
              },
            ],
            actions: [
              { action_type: "set_transaction_category", value: false, value_ref: { type: "Category", name: "Fallback" } },
              { action_type: "auto_categorize" },
            ],
          },
        },
      ]),
    );
    expect(result.errors).toEqual([]);
    const [rule] = result.records.Rule;
    expect(rule!.conditions.map((c) => c.operand)).toEqual(["Coffee Bar", "Coffee Bar", "100", null]);
    expect(rule!.conditions[3]!.sub_conditions.map((c) => c.operand)).toEqual(["walmart", "target"]);
    expect(rule!.actions.map((a) => a.operand)).toEqual([false, null]);
  });

  // "skips invalid records gracefully": Sure's importer skips the line; its upload refuses a first line that is no record.
  it("refuses content whose first line is not JSON (invalid_ndjson), and reports a later one per line", async () => {
    const text = "not valid json\n" + ndjson([account("valid-acct")]);
    const err = await thrownBy(() => readSureNdjson(text));
    expect(err).toBeInstanceOf(NdjsonContentError);
    expect(err.code).toBe("invalid_ndjson");
    expect(err.message).toBe("Invalid Sure NDJSON content.");
    expect(err.errors?.[0]).toMatch(/^Line 1 is not valid JSON: /);

    const later = await readSureNdjson(ndjson([account("valid-acct")]) + "\nnot valid json");
    expect(later.errors).toEqual([{ line: 2, code: "invalid_json", message: expect.stringMatching(/^Line 2 is not valid JSON: /) }]);
    expect(later.records.Account).toHaveLength(1);
    // imports_controller_test.rb: "should report invalid Sure import NDJSON during preflight"
    const preflight = await preflightSureNdjson(text);
    expect(preflight.errors[0]).toMatchObject({ code: "invalid_json" });
    expect(preflight.stats).toMatchObject({ rows_count: 2, valid_rows_count: 1, invalid_rows_count: 1 });
  });
});

// ---------------------------------------------------------------- what Sure's preflight refuses

describe("line problems (sure_import_test.rb)", () => {
  // Found by an attacker's review: an escaped NUL passed reading and preflight, then failed the publish with a generic error.
  it("refuses text PostgreSQL cannot store (an escaped NUL, a lone surrogate) on its line", async () => {
    const text = ndjson([account("uuid-1", { name: "Bad\u0000name" }), account("uuid-2", { name: "Half \ud800 a pair" }), account("uuid-3")]);
    const read = await readSureNdjson(text);
    expect(read.errors.map((error) => [error.line, error.code])).toEqual([
      [1, "invalid_import_record"],
      [2, "invalid_import_record"],
    ]);
    expect(read.errors[0]?.message).toContain("data.name must not contain NUL");
    expect(read.records.Account.map((a) => a.source_id)).toEqual(["uuid-3"]);
  });

  // "preflight catches missing fields unsupported types duplicate valuations and references"
  it("reports missing fields, unsupported types, bad subtypes, duplicate valuations and missing references", async () => {
    const text = ndjson([
      { type: "RecurringTransaction", data: { id: "recurring-1" } },
      { type: "MysteryType", data: { id: "mystery-1" } },
      {
        type: "Account",
        data: { id: "account-1", name: "Bad Subtype", balance: "100", accountable_type: "Depository", accountable: { subtype: "not-a-subtype" } },
      },
      { type: "Valuation", data: { account_id: "account-1", date: "2024-01-01", amount: "100" } },
      { type: "Valuation", data: { account_id: "account-1", date: "2024-01-01", amount: "101" } },
      { type: "Transaction", data: { id: "transaction-1", account_id: "missing-account", date: "2024-01-02", amount: "-5", tag_ids: ["missing-tag"] } },
    ]);
    const result = await readSureNdjson(text);
    expect(result.errors).toEqual([
      {
        line: 1,
        code: "missing_required_fields",
        message: "Line 1 RecurringTransaction is missing required field(s): amount, expected_day_of_month, last_occurrence_date, next_expected_date.",
      },
      { line: 2, code: "unsupported_record_type", message: "Line 2 has unsupported record type MysteryType." },
      { line: 3, code: "invalid_accountable_subtype", message: 'Line 3 Account has invalid Depository subtype "not-a-subtype".' },
      { line: 5, code: "duplicate_valuation", message: 'Line 5 duplicates valuation for account "account-1" on 2024-01-01; first seen on line 4.' },
      { line: 6, code: "missing_reference", message: 'Line 6 Transaction references missing account_id "missing-account".' },
      { line: 6, code: "missing_reference", message: 'Line 6 Transaction references missing tag_ids "missing-tag".' },
    ]);
    // The lines that passed are still read; the two valuations are.
    expect(result.records.Valuation).toHaveLength(2);
    expect(result.records.Account).toHaveLength(0);
    expect(result.unsupportedTypes).toEqual(["MysteryType"]);
    expect((await preflightSureNdjson(text)).valid).toBe(false);
  });

  // "strict preflight requires references to be present in the same ndjson"
  it("makes a reference to a source id the file does not give a line error naming both", async () => {
    const existingAccountId = "0195b9a2-2222-7222-8222-222222222222";
    const result = await readSureNdjson(
      ndjson([
        { type: "Valuation", data: { account_id: existingAccountId, date: "2024-01-01", amount: "100" } },
        { type: "Category", data: { id: "category-child", name: "Imported Child", parent_id: "existing-parent" } },
        { type: "BudgetCategory", data: { budget_id: "budget-x", category_id: "category-child" } },
      ]),
    );
    expect(result.errors.map((e) => e.message)).toEqual([
      `Line 1 Valuation references missing account_id "${existingAccountId}".`,
      'Line 2 Category references missing parent_id "existing-parent".',
      'Line 3 BudgetCategory references missing budget_id "budget-x".',
    ]);
    expect(codesOf(result)).toEqual(["missing_reference", "missing_reference", "missing_reference"]);
  });

  // "preflight allows null rule names and treats orphaned rejected transfers as warnings"
  it("allows a null rule name and only warns of an orphaned rejected transfer", async () => {
    const text = ndjson([
      { type: "Rule", data: { id: "rule-1", name: null, resource_type: "transaction" } },
      { type: "RejectedTransfer", data: { id: "rejected-1", inflow_transaction_id: "missing-inflow", outflow_transaction_id: "missing-outflow" } },
    ]);
    const result = await readSureNdjson(text);
    expect(result.errors).toEqual([]);
    expect(result.warnings.map((w) => w.code)).toEqual(["skipped_missing_reference", "skipped_missing_reference"]);
    expect(result.warnings[0]!.message).toBe(
      'Line 2 RejectedTransfer references missing inflow_transaction_id "missing-inflow". It will be skipped during import.',
    );
    const preflight = await preflightSureNdjson(text);
    expect(preflight.valid).toBe(true);
    expect(preflight.warning_details.map((w) => w.code)).toEqual(["skipped_missing_reference", "skipped_missing_reference"]);
    expect(preflight.warnings[0]).toMatch(/It will be skipped during import\.$/);
  });

  // "preflight rejects invalid accountable types through explicit allowlist"
  it("refuses an accountable type outside Sure's list", async () => {
    const result = await readSureNdjson(ndjson([account("account-1", { accountable_type: "Kernel", accountable: { subtype: "system" } })]));
    expect(result.errors).toEqual([{ line: 1, code: "invalid_accountable_type", message: 'Line 1 Account has invalid accountable_type "Kernel".' }]);
  });

  // "preflight catches duplicate taxonomy names inside ndjson"; "preflight reports blocking errors before publish_later enqueues"
  it("refuses a name given twice, or one the family already has", async () => {
    const text = ndjson([
      { type: "Category", data: { id: "category-1", name: "Groceries" } },
      { type: "Category", data: { id: "category-2", name: "Groceries" } },
      { type: "Tag", data: { id: "tag-1", name: "Reviewed" } },
    ]);
    const result = await readSureNdjson(text, SURE_NDJSON_LIMITS, { existingNames: { Tag: ["Reviewed"] } });
    expect(result.errors).toEqual([
      { line: 2, code: "duplicate_taxonomy_name", message: 'Category name "Groceries" appears more than once in the NDJSON on lines 1, 2.' },
      { line: 3, code: "existing_taxonomy_collision", message: 'Line 3 Tag name "Reviewed" already exists in this family.' },
    ]);
  });

  it("refuses a source id given twice, naming every place", async () => {
    const result = await readSureNdjson(
      ndjson([
        account("a1"),
        account("a1", { name: "Other" }),
        account("a2"),
        { type: "Transaction", data: { id: "t1", account_id: "a2", date: "2024-01-02", amount: "5", split_lines: [{ id: "t1", amount: "5" }] } },
      ]),
    );
    expect(result.errors).toEqual([
      { line: 2, code: "duplicate_source_id", message: 'account source id "a1" appears more than once (Line 1 Account, Line 2 Account).' },
      {
        line: 4,
        code: "duplicate_source_id",
        message: 'transaction source id "t1" appears more than once (Line 4 Transaction, Line 4 Transaction split line 1).',
      },
    ]);
  });

  // "preflight rejects split line totals that cannot import atomically"
  it("refuses split lines that do not add up to their transaction, or are no objects", async () => {
    const result = await readSureNdjson(
      ndjson([
        account("split-account"),
        {
          type: "Transaction",
          data: {
            id: "split-parent",
            account_id: "split-account",
            date: "2024-01-15",
            amount: "100.00",
            split_lines: [
              { id: "c1", amount: "40.00" },
              { id: "c2", amount: "50.00" },
            ],
          },
        },
        { type: "Transaction", data: { id: "p2", account_id: "split-account", date: "2024-01-15", amount: "1", split_lines: ["x", { name: "no amount" }] } },
        { type: "Transaction", data: { id: "p3", account_id: "split-account", date: "2024-01-15", amount: "1", splits: { amount: "1" } } },
      ]),
    );
    expect(result.errors).toEqual([
      {
        line: 2,
        code: "split_amount_mismatch",
        message: "Line 2 Transaction split line amounts must sum to transaction amount 100.0 but sum to 90.0.",
      },
      { line: 3, code: "invalid_split_line", message: "Line 3 Transaction split line 1 must be a JSON object." },
      { line: 3, code: "missing_required_fields", message: "Line 3 Transaction split line 2 is missing required field(s): amount." },
      { line: 4, code: "invalid_split_lines", message: "Line 4 Transaction split_lines must be an array." },
    ]);
    expect(result.records.Transaction).toEqual([]);
  });

  it("names the field of a value of the wrong type", async () => {
    const result = await readSureNdjson(
      ndjson([
        account("a1"),
        { type: "Transaction", data: { id: "t1", account_id: "a1", date: "2024-01-02", amount: { value: 5 }, name: ["x"] } },
        { type: "Transaction", data: { id: "t2", account_id: "a1", date: "2024-02-30", amount: "5", kind: "gift" } },
        { type: "Tag", data: { id: "tag", name: "Tag", color: "red" } },
        {
          type: "RecurringTransaction",
          data: { id: "r", amount: "5", expected_day_of_month: 32, last_occurrence_date: "2024-01-01", next_expected_date: "2024-02-01" },
        },
      ]),
    );
    expect(result.errors).toEqual([
      { line: 2, code: "invalid_import_record", message: "Line 2 Transaction amount must be a decimal number like 12.34; name must be text." },
      {
        line: 3,
        code: "invalid_import_record",
        message:
          "Line 3 Transaction date must be a date like 2024-01-31; kind must be one of: standard, funds_movement, cc_payment, loan_payment, one_time, investment_contribution.",
      },
      { line: 4, code: "invalid_import_record", message: "Line 4 Tag color must be a hex colour like #4da568." },
      { line: 5, code: "invalid_import_record", message: "Line 5 RecurringTransaction expected_day_of_month must be a whole number from 1 to 31." },
    ]);
    expect(result.records.Transaction).toEqual([]);
  });

  // "ndjson line type counts ignore records without data"; "SureImport preflight counts invalid rows instead of validation errors"
  it("reports lines that are no record and counts only lines with a type and data", async () => {
    const text = ndjson([[], { type: "Account", data: { id: "uuid-1" } }, { type: "Transaction" }, { data: { id: "uuid-2" } }, { type: "Tag", data: "x" }]);
    const result = await readSureNdjson('{"type":"Tag","data":{"id":"t","name":"T"}}\n' + text);
    expect(result.errors.filter((e) => e.code === "invalid_ndjson_record")).toEqual([
      { line: 2, code: "invalid_ndjson_record", message: "Line 2 must be a JSON object." },
      { line: 4, code: "invalid_ndjson_record", message: "Line 4 must include type and data." },
      { line: 5, code: "invalid_ndjson_record", message: "Line 5 must include type and data." },
      { line: 6, code: "invalid_ndjson_record", message: "Line 6 data must be a JSON object." },
    ]);
    expect(result.recordTypeCounts).toEqual({ Tag: 2, Account: 1 });
    expect(result.counts).toMatchObject({ accounts: 1, tags: 2, transactions: 0 });

    const preflight = await preflightSureNdjson(ndjson([[], { type: "Transaction", data: { id: "transaction-1" } }]));
    expect(preflight.stats).toMatchObject({ rows_count: 2, valid_rows_count: 1, invalid_rows_count: 1 });
    expect(preflight.errors.length).toBeGreaterThan(preflight.stats.invalid_rows_count!);
  });

  // "publish_later reports unsupported records through preflight before publishable check";
  // "publishable? is false when attached file has no supported records"
  it("makes an unsupported type a blocking error and warns that nothing is importable", async () => {
    const preflight = await preflightSureNdjson(ndjson([{ type: "UnknownType", data: {} }]));
    expect(preflight.valid).toBe(false);
    expect(preflight.errors).toEqual([{ code: "unsupported_record_type", message: "Line 1 has unsupported record type UnknownType." }]);
    expect(preflight.warnings).toEqual(["No importable records were found."]);
    expect(preflight.unsupported_types).toEqual(["UnknownType"]);
    expect(preflight.stats.record_type_counts).toEqual({ UnknownType: 1 });
  });
});

// ---------------------------------------------------------------- amounts

describe("amounts", () => {
  const txn = (amount: unknown, currency?: string) => ({
    type: "Transaction",
    data: { id: `t-${String(amount)}`, account_id: "a", date: "2024-01-02", amount, currency },
  });

  it("reads decimal strings and JSON numbers exactly, in each currency's minor units", async () => {
    const result = await readSureNdjson(
      ndjson([account("a"), txn("12.30"), txn(12.3), txn(1234567890.12), txn("-0.10"), txn(1500, "JPY"), txn("1.234", "KWD"), txn("+7")]),
    );
    expect(result.errors).toEqual([]);
    expect(result.records.Transaction.map((t) => [t.amount_cents, t.currency])).toEqual([
      [1230n, "USD"],
      [1230n, "USD"],
      [123456789012n, "USD"],
      [-10n, "USD"],
      [1500n, "JPY"],
      [1234n, "KWD"],
      [700n, "USD"],
    ]);
  });

  it("takes a transaction's currency from its account when it has none, and the family's for an account without one", async () => {
    const result = await readSureNdjson(
      ndjson([
        account("yen", { currency: "jpy" }),
        account("plain", { currency: undefined }),
        txn("5"),
        { ...txn("12"), data: { ...txn("12").data, id: "y", account_id: "yen" } },
      ]),
      SURE_NDJSON_LIMITS,
      {
        defaultCurrency: "EUR",
      },
    );
    expect(result.errors).toEqual([{ line: 3, code: "missing_reference", message: 'Line 3 Transaction references missing account_id "a".' }]);
    expect(result.records.Account.map((a) => a.currency)).toEqual(["JPY", "EUR"]);
    // "a" is not in the file (its reference is reported apart), so its transaction is in the family's currency.
    expect(result.records.Transaction.map((t) => [t.account_id, t.currency, t.amount_cents])).toEqual([
      ["a", "EUR", 500n],
      ["yen", "JPY", 12n],
    ]);
  });

  it("refuses more decimals than the currency has, a number in another notation, and an amount past the ledger's bound", async () => {
    const result = await readSureNdjson(ndjson([account("a"), txn("12.345"), txn("12.5", "JPY"), txn("1e3"), txn("1,234.00"), txn("20000000000.00")]));
    expect(result.errors.map((e) => e.message)).toEqual([
      "Line 2 Transaction amount has more decimals than USD has (2).",
      "Line 3 Transaction amount has more decimals than JPY has (0).",
      "Line 4 Transaction amount must be a decimal number like 12.34.",
      "Line 5 Transaction amount must be a decimal number like 12.34.",
      "Line 6 Transaction amount is too large (at most 1000000000000 minor units of USD).",
    ]);
  });

  it("rounds the amounts Sure computed with four decimals (trades, holdings, balances) half away from zero", async () => {
    const result = await readSureNdjson(
      ndjson([
        account("inv", { accountable_type: "Investment", balance: "1000.0050" }),
        { type: "Trade", data: { account_id: "inv", date: "2024-01-02", ticker: "VTI", qty: "3.333333333", price: "10.0015", amount: "-33.3383" } },
        { type: "Holding", data: { account_id: "inv", date: "2024-01-02", ticker: "VTI", qty: "1", price: "10.00155", amount: "10.0015" } },
      ]),
    );
    expect(result.errors).toEqual([]);
    expect(result.records.Account[0]!.balance_cents).toBe(100001n);
    expect(result.records.Trade[0]).toMatchObject({ qty: "3.33333333", price: "10.0015", amount_cents: -3334n });
    expect(result.records.Holding[0]).toMatchObject({ price: "10.0016", amount_cents: 1000n });
  });
});

// ---------------------------------------------------------------- the file as a whole

describe("whole-file limits", () => {
  const MiB = 1024 * 1024;

  // imports_controller_test.rb "should reject Sure import uploaded file exceeding max size" (file_too_large);
  // raw_file_content past the size is content_too_large (Api::V1::ImportsController#sure_import_raw_content_attributes).
  it("refuses content of 10 MB + 1 byte before reading a line, named after how it came", async () => {
    const text = " ".repeat(SURE_NDJSON_LIMITS.maxBytes + 1);
    const started = threadCpuMs();
    const err = await thrownBy(() => readSureNdjson(text));
    expect(err).toBeInstanceOf(ImportParseError);
    expect([err.code, err.message]).toEqual(["content_too_large", "Content is too large. Maximum size is 10MB."]);
    expect((await thrownBy(() => readSureNdjson(text, SURE_NDJSON_LIMITS, { source: "file" }))).code).toBe("file_too_large");
    expect((await thrownBy(() => preflightSureNdjson(text))).code).toBe("content_too_large");
    expect(threadCpuMs() - started).toBeLessThan(1_000);
  });

  // sure_import_test.rb "max_row_count is higher than standard imports" (100,000), imports_controller_test.rb
  // "should preserve Sure import if auto publish exceeds row count"; Import::Preflight's row count warning.
  it("refuses 100,001 records with max_row_count_exceeded before reading them; the preflight warns", async () => {
    const line = JSON.stringify({ type: "Tag", data: { id: "t", name: "T" } });
    const text = `${line}\n`.repeat(100_001);
    const started = threadCpuMs();
    const err = await thrownBy(() => readSureNdjson(text));
    expect(err).toBeInstanceOf(ImportParseError);
    expect([err.code, err.message]).toEqual(["max_row_count_exceeded", "The file has more than 100000 records, the most one import can take."]);
    expect(threadCpuMs() - started).toBeLessThan(2_000);

    const small = await readSureNdjson(`${line}\n\n${line}\n`, { maxBytes: MiB, maxRows: 2 });
    expect(small.rowsCount).toBe(2);
    expect((await thrownBy(() => readSureNdjson(`${line}\n`.repeat(3), { maxBytes: MiB, maxRows: 2 }))).code).toBe("max_row_count_exceeded");
    const preflight = await preflightSureNdjson(ndjson([account("a"), account("b"), account("c")]), { limits: { maxBytes: MiB, maxRows: 2 } });
    expect(preflight.warnings).toEqual(["Row count exceeds this import type's publish limit."]);
  });

  // Hearth, not Sure (Sure counts lines only): each split line is a row written, so it counts toward the cap.
  it("counts a transaction's split lines toward the row cap: over it, max_row_count_exceeded; the preflight warns", async () => {
    const limits = { maxBytes: MiB, maxRows: 5 };
    const split = (lines: number) => ({
      type: "Transaction",
      data: {
        id: `t${lines}`,
        account_id: "a",
        date: "2024-01-15",
        amount: `${lines}.00`,
        splits: Array.from({ length: lines }, (_, i) => ({ id: `t${lines}-${i}`, amount_money: "1.00" })),
      },
    });
    // An account, a transaction and its 3 lines: 5 rows, the most.
    const atCap = await readSureNdjson(ndjson([account("a"), split(3)]), limits);
    expect(atCap.errors).toEqual([]);
    expect(atCap.records.Transaction[0]!.split_lines).toHaveLength(3);
    expect((await preflightSureNdjson(ndjson([account("a"), split(3)]), { limits })).warnings).toEqual([]);

    const over = ndjson([account("a"), split(4)]);
    const err = await thrownBy(() => readSureNdjson(over, limits));
    expect(err).toBeInstanceOf(ImportParseError);
    expect([err.code, err.message]).toEqual([
      "max_row_count_exceeded",
      "The file has more than 5 records and transaction split lines, the most one import can take.",
    ]);
    const preflight = await preflightSureNdjson(over, { limits });
    expect(preflight).toMatchObject({ valid: true, stats: { rows_count: 2 } });
    expect(preflight.warning_details).toEqual([{ code: "row_count_exceeded", message: "Row count exceeds this import type's publish limit." }]);
    // Split lines that are no list, and lines of a record that is no Transaction, are not counted.
    const notCounted = ndjson([account("a"), { type: "Tag", data: { id: "g", name: "G", split_lines: [1, 2, 3, 4, 5] } }, split(0)]);
    expect((await readSureNdjson(notCounted, limits)).rowsCount).toBe(3);
  });

  it("refuses a session-sized file of split transactions early, reading no further than the cap", async () => {
    const line = (i: number) =>
      JSON.stringify({
        type: "Transaction",
        data: { id: `t${i}`, account_id: "a", date: "2024-01-15", amount: "50", split_lines: Array.from({ length: 50 }, () => ({ amount: "1" })) },
      });
    // 40,000 lines of 50 split lines: two million rows, twenty times the cap, in 33 MB (an import session may hold 64 MB).
    const text = [JSON.stringify(account("a")), ...Array.from({ length: 40_000 }, (_, i) => line(i))].join("\n");
    const started = threadCpuMs();
    const err = await thrownBy(() => readSureNdjson(text, { ...SURE_NDJSON_LIMITS, maxBytes: Number.MAX_SAFE_INTEGER }));
    expect(err.code).toBe("max_row_count_exceeded");
    // It reads about 2,000 of the 40,000 lines (0.4 s alone); reading them all took 50 s and 1.6 GB.
    expect(threadCpuMs() - started).toBeLessThan(10_000);
  });

  it("refuses a 2 MB line without parsing it, and a 10 MB single line without hanging", async () => {
    const big = JSON.stringify({ type: "Tag", data: { id: "t", name: "x".repeat(2 * MiB) } });
    const started = threadCpuMs();
    const result = await readSureNdjson(`${ndjson([account("a")])}\n${big}`);
    expect(result.errors).toEqual([{ line: 2, code: "line_too_large", message: "Line 2 is longer than 1 MiB, the most one record may take." }]);
    expect(result.records.Account).toHaveLength(1);

    const first = await thrownBy(() => readSureNdjson(big));
    expect([first.code, first.errors]).toEqual(["invalid_ndjson", ["Line 1 is longer than 1 MiB, the most one record may take."]]);
    const single = `{"type":"Tag","data":{"name":"${'\\"'.repeat(5 * MiB - 20)}"}}`;
    expect(single.length).toBeLessThan(SURE_NDJSON_LIMITS.maxBytes);
    expect((await thrownBy(() => readSureNdjson(single))).code).toBe("invalid_ndjson");
    expect((await preflightSureNdjson(single)).errors[0]!.code).toBe("line_too_large");
    expect(threadCpuMs() - started).toBeLessThan(2_000);
  });

  it("refuses JSON nested deeper than 32 levels before JSON.parse sees it", async () => {
    const deep = (levels: number) => `{"type":"Tag","data":{"id":"d","name":"n","x":${"[".repeat(levels - 2)}${"]".repeat(levels - 2)}}}`;
    const result = await readSureNdjson(`${ndjson([account("a")])}\n${deep(33)}\n${deep(32)}\n${deep(100_000)}`);
    expect(result.errors).toEqual([
      { line: 2, code: "too_deeply_nested", message: "Line 2 nests arrays and objects deeper than 32 levels." },
      { line: 4, code: "too_deeply_nested", message: "Line 4 nests arrays and objects deeper than 32 levels." },
    ]);
    expect(result.records.Tag).toHaveLength(1);
    // Brackets inside strings are text, not nesting.
    expect((await readSureNdjson(ndjson([{ type: "Tag", data: { id: "b", name: "[".repeat(100) } }]))).errors).toEqual([]);
  });

  // imports_controller_test.rb: "should reject Sure import with no file or raw content" (missing_content),
  // "should report empty Sure import file as invalid during preflight" (no_data_rows), "should reject invalid
  // Sure import NDJSON content" and sure_import_test.rb "uploaded? returns false with invalid ndjson attachment".
  it("refuses no content (missing_content), an empty file and a first record without type and data (invalid_ndjson)", async () => {
    for (const blank of ["", " \n\t\r\n", "\n\n"]) {
      const err = await thrownBy(() => readSureNdjson(blank));
      expect(err).toBeInstanceOf(NdjsonContentError);
      expect([err.code, err.message]).toEqual(["missing_content", "Provide a Sure NDJSON file or raw_file_content."]);
      expect((await thrownBy(() => preflightSureNdjson(blank))).code).toBe("missing_content");
      expect((await thrownBy(() => readSureNdjson(blank, SURE_NDJSON_LIMITS, { source: "file" }))).code).toBe("invalid_ndjson");
      const preflight = await preflightSureNdjson(blank, { source: "file" });
      expect(preflight).toMatchObject({ valid: false, errors: [{ code: "no_data_rows", message: "No data rows were found." }], warnings: [] });
      expect(preflight.stats.rows_count).toBe(0);
    }
    expect((await thrownBy(() => readSureNdjson("not ndjson"))).code).toBe("invalid_ndjson");
    const err = await thrownBy(() => readSureNdjson('{"type":"Account"}\n'));
    expect([err.code, err.errors]).toEqual(["invalid_ndjson", ["Line 1 must be a JSON object with type and data."]]);
    expect(err.toString()).toContain("Invalid Sure NDJSON content.");
    expect((err as NdjsonContentError).toAppError().code).toBe("invalid_ndjson");
  });

  it("skips blank lines, reads CRLF line ends and a byte order mark, and numbers lines as an editor does", async () => {
    const text = `\uFEFF\r\n${ndjson([account("a")])}\r\n\r\n   \r\n${JSON.stringify({ type: "Transaction", data: { id: "t", account_id: "nope", date: "2024-01-01", amount: "1" } })}\r\n`;
    const result: SureNdjsonReadResult = await readSureNdjson(text);
    expect(result.rowsCount).toBe(2);
    expect(result.records.Account).toHaveLength(1);
    expect(result.errors).toEqual([{ line: 5, code: "missing_reference", message: 'Line 5 Transaction references missing account_id "nope".' }]);
    expect(result.records.Transaction[0]!.line).toBe(5);
  });

  it("lists at most 50 preflight errors, the last saying how many more there are", async () => {
    const preflight = await preflightSureNdjson(ndjson(Array.from({ length: 120 }, (_, i) => ({ type: "Mystery", data: { i } }))));
    expect(preflight.error_count).toBe(120);
    expect(preflight.errors).toHaveLength(50);
    expect(preflight.errors[49]).toEqual({ code: "more_errors", message: "…and 71 more errors." });
    expect(preflight.stats.record_type_counts).toEqual({ Mystery: 120 });
  });
});
