// Debit and credit in two columns (Hearth's amount_type_strategy debit_credit_columns), as most UK
// and US banks write their CSVs, through the gateway: each cell in the file's number format,
// exactly one of the two filled per row.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ImportPreflightResponseSchema, ImportResponseSchema, ImportRowDiagnosticCollectionSchema } from "@hearth/contracts";
import { testPostgresAdminUrl } from "@hearth/test-kit";
import { apiClient, eventually, signUpUser, startSystem, type ApiClient, type TestSystem, type TestUser } from "../src";

let system: TestSystem;
let api: ApiClient;
let user: TestUser;
let current: string;

beforeAll(async () => {
  system = await startSystem({ adminUrl: testPostgresAdminUrl() });
  api = apiClient(system.url);
  user = await signUpUser(api, "two-columns");
  const account = await api.post(
    "/api/v1/accounts",
    { account: { name: "Current account", account_type: "depository", balance: "500", currency: "GBP", opening_balance_date: "2024-01-01" } },
    { apiKey: user.writeKey },
  );
  current = account.body.id;
});
afterAll(async () => system?.stop());

// A UK high-street bank's export: Paid out / Paid in, the running balance beside them.
const UK_STATEMENT = [
  "Date,Description,Paid out,Paid in,Balance",
  '03/02/2024,TESCO STORES 2041,45.20,,"1,954.80"',
  '05/02/2024,SALARY ACME LTD,,"2,000.00","3,954.80"',
  '06/02/2024,CARD REFUND ARGOS,0.00,12.99,"3,967.79"',
].join("\n");

const twoColumns = { type: "TransactionImport", date_format: "%d/%m/%Y", amount_type_strategy: "debit_credit_columns", name_col_label: "Description" };

async function completed(id: string) {
  return eventually(async () => {
    const detail = ImportResponseSchema.parse((await api.get(`/api/v1/imports/${id}`, { apiKey: user.readKey })).body).data;
    expect(detail.status).toBe("complete");
    return detail;
  });
}

describe("amount_type_strategy debit_credit_columns", () => {
  it("previews Paid out and Paid in as the required columns, then imports money out as expenses and money in as income", async () => {
    const preflight = await api.post(
      "/api/v1/imports/preflight",
      { ...twoColumns, account_id: current, raw_file_content: UK_STATEMENT },
      { apiKey: user.readKey },
    );
    expect(preflight.status).toBe(200);
    expect(ImportPreflightResponseSchema.parse(preflight.body).data).toMatchObject({
      valid: true,
      required_headers: ["date", "debit", "credit"],
      missing_required_headers: [],
    });

    const created = await api.post(
      "/api/v1/imports",
      { ...twoColumns, account_id: current, raw_file_content: UK_STATEMENT, publish: "true" },
      { apiKey: user.writeKey },
    );
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    expect((await completed(created.body.data.id)).result).toMatchObject({ transactions: 3 });
    const listed = await api.get(`/api/v1/transactions?account_id=${current}&per_page=100`, { apiKey: user.readKey });
    const byName = Object.fromEntries(
      (listed.body.transactions as { name: string; signed_amount_cents: number }[]).map((t) => [t.name, t.signed_amount_cents]),
    );
    // The balance column is never read: 45.20 out, 2,000.00 in, and 12.99 in beside a 0.00 debit.
    expect(byName).toEqual({ "TESCO STORES 2041": -4520, "SALARY ACME LTD": 200000, "CARD REFUND ARGOS": 1299 });
  });

  it("reads labelled columns in the file's number format, a sign under Debit counted once", async () => {
    const csv = ["Buchungstag;Text;Soll;Haben", "03.02.2024;Miete;-1.200,00;", "04.02.2024;Gehalt;;3.100,50"].join("\n");
    const res = await api.post(
      "/api/v1/imports",
      {
        ...twoColumns,
        account_id: current,
        raw_file_content: csv,
        col_sep: ";",
        number_format: "1.234,56",
        date_format: "%d.%m.%Y",
        name_col_label: "Text",
        date_col_label: "Buchungstag",
        debit_col_label: "Soll",
        credit_col_label: "Haben",
      },
      { apiKey: user.writeKey },
    );
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    const rows = ImportRowDiagnosticCollectionSchema.parse((await api.get(`/api/v1/imports/${res.body.data.id}/rows`, { apiKey: user.readKey })).body).data;
    expect(rows.map((row) => [row.fields.name, row.fields.amount, row.errors])).toEqual([
      ["Miete", "-1200.00", []],
      ["Gehalt", "3100.50", []],
    ]);
  });

  it("makes a row with both columns filled, or neither, an invalid row that says so, and a missing column a missing header", async () => {
    const csv = ["Date,Description,Debit,Credit", "03/02/2024,Both,10.00,5.00", "04/02/2024,Neither,,", "05/02/2024,Fine,1.00,"].join("\n");
    const res = await api.post("/api/v1/imports", { ...twoColumns, account_id: current, raw_file_content: csv }, { apiKey: user.writeKey });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    expect(res.body.data.stats).toMatchObject({ rows_count: 3, valid_rows_count: 1, invalid_rows_count: 2 });
    const rows = ImportRowDiagnosticCollectionSchema.parse((await api.get(`/api/v1/imports/${res.body.data.id}/rows`, { apiKey: user.readKey })).body).data;
    expect(rows.map((row) => row.errors)).toEqual([
      ["Debit and Credit both hold an amount: a row takes one of the two"],
      ["Debit or Credit is required: the row has an amount in neither"],
      [],
    ]);

    const noCredit = await api.post(
      "/api/v1/imports/preflight",
      { ...twoColumns, account_id: current, raw_file_content: "Date,Description,Debit\n03/02/2024,Out,1.00" },
      { apiKey: user.readKey },
    );
    expect(ImportPreflightResponseSchema.parse(noCredit.body).data).toMatchObject({ valid: false, missing_required_headers: ["credit"] });
  });
});
