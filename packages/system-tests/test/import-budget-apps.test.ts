// Mint, YNAB and Actual Budget exports (Sure's MintImport, YnabImport, ActualImport) through the
// gateway: their column defaults applied before the headers are checked, rows read as Sure reads
// them, published into the accounts the rows name. Cases mirror Sure's
// test/controllers/api/v1/imports_controller_test.rb and test/models/{mint,ynab,actual}_import_test.rb.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ImportPreflightResponseSchema, ImportResponseSchema, ImportRowDiagnosticCollectionSchema } from "@hearth/contracts";
import { testPostgresAdminUrl } from "@hearth/test-kit";
import { apiClient, eventually, signUpUser, startSystem, type ApiClient, type TestSystem, type TestUser } from "../src";

let system: TestSystem;
let api: ApiClient;
let user: TestUser;

beforeAll(async () => {
  system = await startSystem({ adminUrl: testPostgresAdminUrl() });
  api = apiClient(system.url);
  user = await signUpUser(api, "budget-apps");
  for (const [name, type] of [
    ["Everyday", "depository"],
    ["Visa", "credit_card"],
  ] as const) {
    const account = await api.post(
      "/api/v1/accounts",
      { account: { name, account_type: type, balance: "0", opening_balance_date: "2023-01-01" } },
      { apiKey: user.writeKey },
    );
    expect(account.status).toBe(201);
  }
});
afterAll(async () => system?.stop());

const YNAB = [
  '"Account","Flag","Date","Payee","Category Group/Category","Category Group","Category","Memo","Outflow","Inflow","Cleared"',
  '"Everyday","","02/01/2024","City Lettings","Housing: Rent","Housing","Rent","February rent","$1,500.00","$0.00","Cleared"',
  '"Visa","Red","02/02/2024","Bean There","Food: Coffee","Food","Coffee","Flat white","$4.25","$0.00","Uncleared"',
  '"Everyday","","02/05/2024","Acme Payroll","Income: Paycheck","Income","Paycheck","Salary","$0.00","$2,500.00","Cleared"',
  '"Everyday","","02/04/2024","","","","","Reconciliation balance adjustment","$0.00","$0.43","Reconciled"',
].join("\n");

const ACTUAL = [
  "Account,Date,Payee,Notes,Category_Group,Category,Amount,Split_Amount,Cleared",
  "Everyday,2024-03-01,City Lettings,March rent,Housing,Rent,-1500.00,0,Reconciled",
  "Everyday,2024-03-05,Acme Payroll,Salary,Income,Paycheck,2500.00,0,Reconciled",
  "Everyday,2024-03-04,,Reconciliation balance adjustment,Income,,0.43,0,Reconciled",
].join("\n");

const MINT = [
  "Date,Description,Original Description,Amount,Transaction Type,Category,Account Name,Labels,Notes",
  "04/01/2023,Corner Grocer,GROCER #12,78.32,debit,Groceries,Everyday,weekly,",
  "04/03/2023,Refund Shop,REFUND 77,12.50,credit,Shopping,Visa,,returned",
].join("\n");

async function publishedRows(type: string, content: string) {
  const created = await api.post("/api/v1/imports", { type, raw_file_content: content, publish: "true" }, { apiKey: user.writeKey });
  expect(created.status, JSON.stringify(created.body)).toBe(201);
  const id = created.body.data.id as string;
  await eventually(async () => {
    const detail = ImportResponseSchema.parse((await api.get(`/api/v1/imports/${id}`, { apiKey: user.readKey })).body).data;
    expect(detail.status, JSON.stringify(detail)).toBe("complete");
  });
  return ImportRowDiagnosticCollectionSchema.parse((await api.get(`/api/v1/imports/${id}/rows`, { apiKey: user.readKey })).body).data;
}

async function signedAmounts(search: string): Promise<Record<string, number>> {
  const res = await api.get(`/api/v1/transactions?search=${encodeURIComponent(search)}&per_page=100`, { apiKey: user.readKey });
  return Object.fromEntries((res.body.transactions as { name: string; signed_amount_cents: number }[]).map((t) => [t.name, t.signed_amount_cents]));
}

describe("preflight of the budgeting apps' exports", () => {
  it("applies Mint's and Actual's column defaults before the header check ('should apply Mint/Actual defaults before preflight header validation')", async () => {
    for (const [type, content] of [
      ["MintImport", MINT],
      ["ActualImport", ACTUAL],
    ] as const) {
      const res = await api.post("/api/v1/imports/preflight", { type, raw_file_content: content }, { apiKey: user.readKey });
      expect(res.status, JSON.stringify(res.body)).toBe(200);
      const data = ImportPreflightResponseSchema.parse(res.body).data;
      expect(data).toMatchObject({ type, valid: true, missing_required_headers: [] });
      expect(data.required_headers).toEqual(expect.arrayContaining(["Date", "Amount"]));
    }
  });

  it("keeps the labels a request gives ('should not overwrite explicit Actual preflight column mappings with defaults')", async () => {
    const res = await api.post(
      "/api/v1/imports/preflight",
      { type: "ActualImport", raw_file_content: "Booked On,Value,Payee\n2024-01-01,-4.25,Coffee Shop", date_col_label: "Booked On", amount_col_label: "Value" },
      { apiKey: user.readKey },
    );
    expect(ImportPreflightResponseSchema.parse(res.body).data).toMatchObject({
      valid: true,
      required_headers: ["Booked On", "Value"],
      missing_required_headers: [],
    });
  });

  it("takes a YNAB file's Outflow and Inflow for its amount", async () => {
    const res = await api.post("/api/v1/imports/preflight", { type: "YnabImport", raw_file_content: YNAB }, { apiKey: user.readKey });
    expect(ImportPreflightResponseSchema.parse(res.body).data).toMatchObject({ type: "YnabImport", valid: true, missing_required_headers: [] });
  });

  it("answers an unknown type 422 invalid_import_type with Sure's message and no errors list ('should reject unknown preflight import type')", async () => {
    const res = await api.post(
      "/api/v1/imports/preflight",
      { type: "FakeImport", raw_file_content: "date,amount,name\n2023-01-01,-10.00,Test" },
      { apiKey: user.readKey },
    );
    expect(res.status).toBe(422);
    expect(res.body).toMatchObject({ error: "invalid_import_type", message: expect.stringMatching(/^type must be one of: TransactionImport, .*MintImport/) });
    expect(res.body).not.toHaveProperty("errors");
  });
});

describe("importing the budgeting apps' exports", () => {
  it("YNAB: an outflow of 1,500 an expense, an inflow of 2,500 income, group and category joined, a blank payee named by its memo", async () => {
    const rows = await publishedRows("YnabImport", YNAB);
    expect(rows.map((row) => [row.fields.name, row.fields.amount, row.fields.category, row.fields.account])).toEqual([
      ["City Lettings", "-1500.00", "Housing: Rent", "Everyday"],
      ["Bean There", "-4.25", "Food: Coffee", "Visa"],
      ["Acme Payroll", "2500.00", "Income: Paycheck", "Everyday"],
      ["Reconciliation balance adjustment", "0.43", "", "Everyday"],
    ]);
    expect(await signedAmounts("City Lettings")).toEqual({ "City Lettings": -150000 });
    expect(await signedAmounts("Acme Payroll")).toEqual({ "Acme Payroll": 250000 });
  });

  it("Actual: signed amounts, Category_Group and Category joined (the group alone when the category is blank), a blank payee named by its notes", async () => {
    const rows = await publishedRows("ActualImport", ACTUAL);
    expect(rows.map((row) => [row.fields.name, row.fields.amount, row.fields.category])).toEqual([
      ["City Lettings", "-1500.00", "Housing: Rent"],
      ["Acme Payroll", "2500.00", "Income: Paycheck"],
      ["Reconciliation balance adjustment", "0.43", "Income"],
    ]);
    expect((await signedAmounts("Reconciliation balance"))["Reconciliation balance adjustment"]).toBe(43);
  });

  it("Mint: a debit is money out and a credit money in, Labels its tags", async () => {
    const rows = await publishedRows("MintImport", MINT);
    expect(rows.map((row) => [row.fields.name, row.fields.amount, row.fields.tags])).toEqual([
      ["Corner Grocer", "-78.32", "weekly"],
      ["Refund Shop", "12.50", ""],
    ]);
    expect(await signedAmounts("Corner Grocer")).toEqual({ "Corner Grocer": -7832 });
    expect(await signedAmounts("Refund Shop")).toEqual({ "Refund Shop": 1250 });
  });

  it("creates an import of an unknown type as a TransactionImport, as Sure's create does", async () => {
    const res = await api.post(
      "/api/v1/imports",
      { type: "FakeImport", raw_file_content: "date,amount,name,account\n01/02/2024,-1.00,Mystery,Everyday" },
      { apiKey: user.writeKey },
    );
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    expect(res.body.data.type).toBe("TransactionImport");
  });
});
