// Every Hearth export imports back, into Hearth and into Sure (issue 37, item 15). Through the
// gateway as a household moving between families uses it: write, export, import the export into
// a fresh family, export again. Account subtypes are checked against Sure's lists (each
// accountable's SUBTYPES, as SureImport::Preflight#validate_accountables reads them); merchants,
// accounts and holdings keep what Sure's Family::DataExporter writes and DataImporter reads.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ImportResponseSchema } from "@hearth/contracts";
import { testPostgresAdminUrl } from "@hearth/test-kit";
import { apiClient, eventually, exportedFiles, ndjsonRecords, signUpUser, startSystem, type ApiClient, type TestSystem, type TestUser } from "../src";

let system: TestSystem;
let api: ApiClient;
let source: TestUser;

beforeAll(async () => {
  system = await startSystem({ adminUrl: testPostgresAdminUrl() });
  api = apiClient(system.url);
  source = await signUpUser(api, "export-source");
});
afterAll(async () => system?.stop());

const createAccount = (account: Record<string, unknown>, user = source) => api.post("/api/v1/accounts", { account }, { apiKey: user.writeKey });

/** Uploads `content` as an import of `type`, published, and waits for it to end. */
async function imported(user: TestUser, type: string, content: string) {
  const created = await api.post("/api/v1/imports", { type, raw_file_content: content, publish: "true" }, { apiKey: user.writeKey });
  expect(created.status, JSON.stringify(created.body)).toBe(201);
  const { id } = ImportResponseSchema.parse(created.body).data;
  return eventually(async () => {
    const detail = ImportResponseSchema.parse((await api.get(`/api/v1/imports/${id}`, { apiKey: user.readKey })).body).data;
    expect(["complete", "failed"]).toContain(detail.status);
    return detail;
  });
}

async function settled(user: TestUser): Promise<void> {
  await eventually(async () => {
    const res = await api.get("/api/v1/syncs?per_page=100", { apiKey: user.readKey });
    expect(res.body.data.filter((sync: { status: string }) => sync.status === "pending" || sync.status === "syncing")).toEqual([]);
  });
}

const ndjson = (...records: unknown[]) => records.map((record) => JSON.stringify(record)).join("\n");
const DEPOSITORY_MESSAGE = 'Subtype "sedan" is not a depository subtype; use one of: checking, savings, hsa, cd, money_market';

describe("account subtypes: Sure's lists per accountable type", () => {
  it("create refuses a subtype its type does not list, 422 naming the allowed ones (Sure: loan_test.rb 'rejects invalid subtype')", async () => {
    const refused = await createAccount({ name: "Car fund", account_type: "depository", subtype: "sedan" });
    expect(refused.status).toBe(422);
    expect(refused.body).toEqual({ error: "validation_failed", message: DEPOSITORY_MESSAGE, errors: [DEPOSITORY_MESSAGE] });
    const loan = await createAccount({ name: "Loan", account_type: "loan", subtype: "invalid" });
    expect(loan.status).toBe(422);
    expect(loan.body.message).toContain("mortgage, student, auto, home_equity, line_of_credit, business, other");
    // Sure's keys are case-sensitive: its labels are not its keys.
    expect((await createAccount({ name: "Savings", account_type: "depository", subtype: "Savings" })).status).toBe(422);
    const names = (await api.get("/api/v1/accounts", { apiKey: source.readKey })).body.accounts.map((a: { name: string }) => a.name);
    expect(names).toEqual([]);
  });

  it("create takes every subtype Sure lists, and any for the types without a list (Sure: accounts_controller_test.rb 'should expose subtype across account types')", async () => {
    for (const [account_type, subtype] of [
      ["depository", "savings"],
      ["investment", "non-registered"],
      ["crypto", "exchange"],
      ["property", "single_family_home"],
      ["credit_card", "credit_card"],
      ["loan", "mortgage"],
      ["vehicle", "sedan"],
      ["other_asset", "collectible"],
      ["other_liability", "personal_debt"],
    ]) {
      const created = await createAccount({ name: `My ${subtype}`, account_type, subtype, balance: "10", opening_balance_date: "2026-01-01" });
      expect(created.status, JSON.stringify(created.body)).toBe(201);
      expect(created.body).toMatchObject({ account_type, subtype });
    }
  });

  it("update refuses one too, leaving the account as it was", async () => {
    const accounts = (await api.get("/api/v1/accounts", { apiKey: source.readKey })).body.accounts as { id: string; name: string }[];
    const savings = accounts.find((account) => account.name === "My savings")!;
    const refused = await api.patch(`/api/v1/accounts/${savings.id}`, { account: { subtype: "sedan", name: "Renamed" } }, { apiKey: source.writeKey });
    expect(refused.status).toBe(422);
    expect(refused.body).toEqual({ error: "validation_failed", message: DEPOSITORY_MESSAGE, errors: [DEPOSITORY_MESSAGE] });
    expect((await api.get(`/api/v1/accounts/${savings.id}`, { apiKey: source.readKey })).body).toMatchObject({ name: "My savings", subtype: "savings" });
    const changed = await api.patch(`/api/v1/accounts/${savings.id}`, { account: { subtype: "money_market" } }, { apiKey: source.writeKey });
    expect(changed.status).toBe(200);
    expect(changed.body.subtype).toBe("money_market");
    expect((await api.patch(`/api/v1/accounts/${savings.id}`, { account: { subtype: null } }, { apiKey: source.writeKey })).status).toBe(200);
    expect((await api.patch(`/api/v1/accounts/${savings.id}`, { account: { subtype: "savings" } }, { apiKey: source.writeKey })).status).toBe(200);
  });
});

describe("the family export imports back", () => {
  let files: Map<string, string>;

  beforeAll(async () => {
    // What Sure's exporter writes of a merchant and an account (merchant.as_json, account.as_json).
    const sure = await imported(
      source,
      "SureImport",
      ndjson(
        {
          type: "Account",
          data: {
            id: "acct-1",
            name: "Rainy day",
            balance: "500",
            currency: "USD",
            accountable_type: "Depository",
            accountable: { subtype: "savings" },
            notes: "Joint with Sam; closes 2030",
          },
        },
        {
          type: "Merchant",
          data: { id: "m-1", name: "Corner Cafe", color: "#e99537", logo_url: "https://logos.example/cafe.png", website_url: "https://cafe.example" },
        },
      ),
    );
    expect(sure.error ?? null).toBeNull();
    // Sure's merchants controller CSV upload and its MerchantImport, each with a website_url column.
    const form = new FormData();
    form.append("file", new Blob(["name,color,website_url\nBookstore,#4da568,https://books.example\nPlain Deli,,\n"], { type: "text/csv" }), "m.csv");
    const uploaded = await fetch(`${system.url}/api/v1/merchants`, { method: "POST", headers: { "x-api-key": source.writeKey }, body: form });
    expect(uploaded.status).toBe(201);
    expect((await imported(source, "MerchantImport", "name,color,website_url\nPizza Palace,#4da568,https://pizzapalace.com\n")).status).toBe("complete");
    // A position, so the export has holdings.
    const brokerage = (await api.get("/api/v1/accounts", { apiKey: source.readKey })).body.accounts.find(
      (a: { name: string }) => a.name === "My non-registered",
    );
    const trade = { account_id: brokerage.id, type: "buy", date: "2026-06-01", qty: 3, price: 100, ticker: "VTI" };
    expect((await api.post("/api/v1/trades", { trade }, { apiKey: source.writeKey })).status).toBe(201);
    await settled(source);
    files = await exportedFiles(system.url, api, source);
  }, 60_000);

  it("merchants.csv writes each merchant's website_url (Sure: data_exporter.rb generate_merchants_csv)", () => {
    expect(files.get("merchants.csv")!.trimEnd().split("\n")).toEqual([
      "name,color,website_url",
      "Bookstore,#4da568,https://books.example",
      "Corner Cafe,#e99537,https://cafe.example",
      "Pizza Palace,#4da568,https://pizzapalace.com",
      "Plain Deli,,",
    ]);
  });

  it("all.ndjson writes merchants' logo_url and website_url, accounts' notes, holdings' cost_basis_locked and security_locked (Sure: data_exporter.rb generate_ndjson)", () => {
    const all = files.get("all.ndjson")!;
    expect(ndjsonRecords(all, "Merchant").find((record) => record.data.name === "Corner Cafe")?.data).toMatchObject({
      logo_url: "https://logos.example/cafe.png",
      website_url: "https://cafe.example",
    });
    expect(ndjsonRecords(all, "Merchant").find((record) => record.data.name === "Bookstore")?.data).toMatchObject({
      logo_url: null,
      website_url: "https://books.example",
    });
    expect(ndjsonRecords(all, "Account").find((record) => record.data.name === "Rainy day")?.data).toMatchObject({ notes: "Joint with Sam; closes 2030" });
    const holdings = ndjsonRecords(all, "Holding");
    expect(holdings.length).toBeGreaterThan(0);
    for (const { data } of holdings) expect(data).toMatchObject({ cost_basis_source: "calculated", cost_basis_locked: false, security_locked: false });
  });

  it("passes Sure's preflight, imports into a fresh family and exports again with the same accounts, merchants and holdings (Sure: data_importer_test.rb 'full import scenario')", async () => {
    const all = files.get("all.ndjson")!;
    // In the family it came from, its merchants' names are taken (Sure's existing_taxonomy_collision); in a fresh one it is valid.
    const own = await api.post("/api/v1/imports/preflight", { type: "SureImport", raw_file_content: all }, { apiKey: source.readKey });
    expect(own.body.data.errors.map((error: { code: string }) => error.code)).toContain("existing_taxonomy_collision");
    const target = await signUpUser(api, "export-target");
    const preflight = await api.post("/api/v1/imports/preflight", { type: "SureImport", raw_file_content: all }, { apiKey: target.readKey });
    expect(preflight.body.data, JSON.stringify(preflight.body)).toMatchObject({ valid: true });

    const done = await imported(target, "SureImport", all);
    expect(done.error ?? null).toBeNull();
    expect(done.status).toBe("complete");
    await settled(target);
    const again = (await exportedFiles(system.url, api, target)).get("all.ndjson")!;

    const fields = (text: string, type: string, keys: string[]) =>
      ndjsonRecords(text, type)
        .map((record) => JSON.stringify(keys.map((key) => record.data[key])))
        .sort();
    expect(fields(again, "Account", ["name", "subtype", "notes"])).toEqual(fields(all, "Account", ["name", "subtype", "notes"]));
    expect(fields(again, "Merchant", ["name", "color", "website_url", "logo_url"])).toEqual(
      fields(all, "Merchant", ["name", "color", "website_url", "logo_url"]),
    );
    const locks = ["date", "ticker", "cost_basis_locked", "security_locked"];
    expect(fields(again, "Holding", locks)).toEqual(fields(all, "Holding", locks));
  });

  it("merchants.csv imports into a fresh family as a MerchantImport and exports again the same (Sure: merchant_import.rb)", async () => {
    const target = await signUpUser(api, "export-csv-target");
    expect((await imported(target, "MerchantImport", files.get("merchants.csv")!)).status).toBe("complete");
    const again = (await exportedFiles(system.url, api, target)).get("merchants.csv");
    expect(again).toBe(files.get("merchants.csv"));
    expect(again).toContain("Bookstore,#4da568,https://books.example\n");
  });
});
