// Account names in a file (an account column), through the gateway: each listed with where it
// goes, publishing refused until every name goes somewhere, and a mapping (an account of the
// family, or a new one) set before publishing, as Sure's Import::AccountMapping does.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ImportResponseSchema } from "@hearth/contracts";
import { testPostgresAdminUrl } from "@hearth/test-kit";
import { apiClient, eventually, signUpUser, startSystem, type ApiClient, type TestSystem, type TestUser } from "../src";

let system: TestSystem;
let api: ApiClient;
let user: TestUser;
const accounts: Record<string, string> = {};

beforeAll(async () => {
  system = await startSystem({ adminUrl: testPostgresAdminUrl() });
  api = apiClient(system.url);
  user = await signUpUser(api, "account-names");
  for (const name of ["Everyday", "Rainy Day"]) {
    const res = await api.post(
      "/api/v1/accounts",
      { account: { name, account_type: "depository", balance: "0", opening_balance_date: "2026-01-01" } },
      { apiKey: user.writeKey },
    );
    accounts[name] = res.body.id;
  }
});
afterAll(async () => system?.stop());

const CSV = [
  "date,amount,name,account",
  "2026-03-01,-5.00,Lunch,everyday",
  "2026-03-02,-80.00,Flights,Holiday Fund",
  "2026-03-03,20.00,Interest,Savings Pot",
].join("\n");

async function upload() {
  const res = await api.post("/api/v1/imports", { type: "TransactionImport", date_format: "%Y-%m-%d", raw_file_content: CSV }, { apiKey: user.writeKey });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return ImportResponseSchema.parse(res.body).data;
}
const mapNames = (id: string, mappings: unknown[]) => api.put(`/api/v1/imports/${id}/account_mappings`, { mappings }, { apiKey: user.writeKey });

async function transactionsIn(accountId: string): Promise<string[]> {
  const res = await api.get(`/api/v1/transactions?account_id=${accountId}&per_page=100`, { apiKey: user.readKey });
  return (res.body.transactions as { name: string }[]).map((t) => t.name).sort();
}

describe("the account names of a file", () => {
  it("are listed with where they go; publishing waits for every one, then uses the mappings", async () => {
    const created = await upload();
    expect(created.account_names).toEqual([
      { name: "Holiday Fund", account: null, create: false },
      { name: "Savings Pot", account: null, create: false },
      { name: "everyday", account: { id: accounts["Everyday"], name: "Everyday" }, create: false },
    ]);
    expect(created).toMatchObject({ status_detail: { cleaned: true, publishable: false }, stats: { mappings_count: 3, unassigned_mappings_count: 2 } });

    const refused = await api.post(`/api/v1/imports/${created.id}/publish`, {}, { apiKey: user.writeKey });
    expect(refused.status).toBe(422);
    expect(refused.body).toMatchObject({ error: "not_publishable", message: expect.stringContaining('"Holiday Fund", "Savings Pot"') });

    const mapped = await mapNames(created.id, [
      { name: "Holiday Fund", create: true },
      { name: "Savings Pot", account_id: accounts["Rainy Day"] },
    ]);
    expect(mapped.status, JSON.stringify(mapped.body)).toBe(200);
    expect(ImportResponseSchema.parse(mapped.body).data).toMatchObject({
      status_detail: { publishable: true },
      stats: { unassigned_mappings_count: 0 },
      account_names: [
        { name: "Holiday Fund", account: null, create: true },
        { name: "Savings Pot", account: { id: accounts["Rainy Day"], name: "Rainy Day" }, create: false },
        { name: "everyday", account: { id: accounts["Everyday"] } },
      ],
    });
    const rows = await api.get(`/api/v1/imports/${created.id}/rows`, { apiKey: user.readKey });
    expect(rows.body.data[2].mappings.account.mappable).toMatchObject({ id: accounts["Rainy Day"], type: "Account" });

    expect((await api.post(`/api/v1/imports/${created.id}/publish`, {}, { apiKey: user.writeKey })).status).toBe(202);
    await eventually(async () => {
      const detail = ImportResponseSchema.parse((await api.get(`/api/v1/imports/${created.id}`, { apiKey: user.readKey })).body).data;
      expect(detail.status).toBe("complete");
    });
    const list = await api.get("/api/v1/accounts?per_page=100", { apiKey: user.readKey });
    const holiday = (list.body.accounts as { id: string; name: string }[]).find((account) => account.name === "Holiday Fund");
    expect(holiday).toBeTruthy();
    expect(await transactionsIn(holiday!.id)).toEqual(["Flights"]);
    expect(await transactionsIn(accounts["Rainy Day"]!)).toEqual(["Interest"]);
    expect(await transactionsIn(accounts["Everyday"]!)).toEqual(["Lunch"]);

    // Mapped only before publishing; the account the import made goes with its revert.
    expect((await mapNames(created.id, [{ name: "Holiday Fund", account_id: accounts["Everyday"] }])).status).toBe(409);
    expect((await api.post(`/api/v1/imports/${created.id}/revert`, {}, { apiKey: user.writeKey })).status).toBe(200);
    const after = await api.get("/api/v1/accounts?per_page=100", { apiKey: user.readKey });
    expect((after.body.accounts as { name: string }[]).map((account) => account.name)).not.toContain("Holiday Fund");
  });

  it("keeps an account it made through its revert when something else was put in it since", async () => {
    const created = await upload();
    await mapNames(created.id, [
      { name: "Holiday Fund", create: true },
      { name: "Savings Pot", account_id: accounts["Rainy Day"] },
    ]);
    expect((await api.post(`/api/v1/imports/${created.id}/publish`, {}, { apiKey: user.writeKey })).status).toBe(202);
    await eventually(async () => {
      expect((await api.get(`/api/v1/imports/${created.id}`, { apiKey: user.readKey })).body.data.status).toBe("complete");
    });
    const list = await api.get("/api/v1/accounts?per_page=100", { apiKey: user.readKey });
    const holiday = (list.body.accounts as { id: string; name: string }[]).find((account) => account.name === "Holiday Fund")!;
    const mine = await api.post(
      "/api/v1/transactions",
      { transaction: { account_id: holiday.id, date: "2026-03-09", amount: "9.00", name: "Sunscreen", nature: "expense" } },
      { apiKey: user.writeKey },
    );
    expect(mine.status).toBe(201);

    expect((await api.post(`/api/v1/imports/${created.id}/revert`, {}, { apiKey: user.writeKey })).status).toBe(200);
    // Was: the account deleted with the person's transaction in it.
    expect((await api.get(`/api/v1/accounts/${holiday.id}`, { apiKey: user.readKey })).status).toBe(200);
    expect(await transactionsIn(holiday.id)).toEqual(["Sunscreen"]);
  });

  it("refuses rows read as the family's dollars for a yen account, rather than write them 100 times off", async () => {
    const yen = await api.post(
      "/api/v1/accounts",
      { account: { name: "Yen Wallet", account_type: "depository", balance: "0", currency: "JPY", opening_balance_date: "2026-01-01" } },
      { apiKey: user.writeKey },
    );
    expect(yen.status).toBe(201);
    const res = await api.post(
      "/api/v1/imports",
      {
        type: "TransactionImport",
        date_format: "%Y-%m-%d",
        raw_file_content: "date,amount,name,account\n2026-03-01,-1234.50,Ramen,Yen Wallet",
        publish: "true",
      },
      { apiKey: user.writeKey },
    );
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    const failed = await eventually(async () => {
      const detail = (await api.get(`/api/v1/imports/${res.body.data.id}`, { apiKey: user.readKey })).body.data;
      expect(detail.status).toBe("failed");
      return detail;
    });
    expect(failed.error).toBe(
      'Account "Yen Wallet" is in JPY, but the rows for it were read as USD amounts, which have other decimals: import them with that account\'s account_id, or with a currency column',
    );
    expect(await transactionsIn(yen.body.id)).toEqual([]);
  });

  it("refuses a name the file does not have, another family's account, and a mapping with both an account and create", async () => {
    const created = await upload();
    const unknown = await mapNames(created.id, [{ name: "Elsewhere", create: true }]);
    expect(unknown.status).toBe(422);
    expect(unknown.body.errors).toEqual(['The file names no account "Elsewhere"']);

    const stranger = await signUpUser(api, "account-names-stranger");
    const theirs = await api.post("/api/v1/accounts", { account: { name: "Theirs", account_type: "depository", balance: "0" } }, { apiKey: stranger.writeKey });
    expect((await mapNames(created.id, [{ name: "Holiday Fund", account_id: theirs.body.id }])).status).toBe(404);
    expect((await mapNames(created.id, [{ name: "Holiday Fund", account_id: accounts["Everyday"], create: true }])).status).toBe(422);
    // Another family cannot map this import's names at all.
    const foreign = await api.put(
      `/api/v1/imports/${created.id}/account_mappings`,
      { mappings: [{ name: "Holiday Fund", create: true }] },
      { apiKey: stranger.writeKey },
    );
    expect(foreign.status).toBe(404);
  });
});

// Quicken's all-accounts QIF export: an !Account record (N name, T type) before each account's
// section. Sure imports the first account's; Hearth every one but investment accounts, each into
// the account its name goes to.
const QUICKEN_ALL_ACCOUNTS = [
  "!Option:AutoSwitch",
  "!Account",
  "NEveryday",
  "TBank",
  "^",
  "NTravel Card",
  "TCCard",
  "^",
  "!Clear:AutoSwitch",
  "!Account",
  "NEveryday",
  "TBank",
  "^",
  "!Type:Bank",
  "D03/01'26",
  "T0.00",
  "POpening Balance",
  "^",
  "D03/04'26",
  "T-12.50",
  "PBakery",
  "^",
  "!Account",
  "NTravel Card",
  "TCCard",
  "^",
  "!Type:CCard",
  "D03/05'26",
  "T-300.00",
  "PAirline",
  "^",
  "D03/06'26",
  "T-45.00",
  "PHotel",
  "^",
  "!Account",
  "NBrokerage",
  "TInvst",
  "^",
  "!Type:Invst",
  "D03/07'26",
  "NBuy",
  "YACME",
  "I10.00",
  "Q5",
  "T50.00",
  "^",
].join("\n");

describe("a QIF file of several accounts", () => {
  it("imports each account's section into the account its name goes to, saying per account what it wrote (was refused)", async () => {
    const created = await api.post("/api/v1/imports", { type: "QifImport", raw_file_content: QUICKEN_ALL_ACCOUNTS }, { apiKey: user.writeKey });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    const detail = ImportResponseSchema.parse(created.body).data;
    expect(detail.stats).toMatchObject({ rows_count: 3, valid_rows_count: 3, mappings_count: 2, unassigned_mappings_count: 1 });
    expect(detail.account_names.map((each) => [each.name, each.account?.name ?? null])).toEqual([
      ["Everyday", "Everyday"],
      ["Travel Card", null],
    ]);
    expect((await mapNames(detail.id, [{ name: "Travel Card", create: true }])).status).toBe(200);
    expect((await api.post(`/api/v1/imports/${detail.id}/publish`, {}, { apiKey: user.writeKey })).status).toBe(202);
    const done = await eventually(async () => {
      const shown = ImportResponseSchema.parse((await api.get(`/api/v1/imports/${detail.id}`, { apiKey: user.readKey })).body).data;
      expect(shown.status).toBe("complete");
      return shown;
    });
    expect(done.result).toMatchObject({ transactions: 3, "transactions:Everyday": 1, "transactions:Travel Card": 2 });
    const list = await api.get("/api/v1/accounts?per_page=100", { apiKey: user.readKey });
    const card = (list.body.accounts as { id: string; name: string }[]).find((account) => account.name === "Travel Card");
    expect(await transactionsIn(card!.id)).toEqual(["Airline", "Hotel"]);
    expect(await transactionsIn(accounts["Everyday"]!)).toContain("Bakery");
  });

  it("refuses such a file for an import given one account, naming the accounts it holds", async () => {
    const res = await api.post(
      "/api/v1/imports",
      { type: "QifImport", account_id: accounts["Everyday"], raw_file_content: QUICKEN_ALL_ACCOUNTS },
      { apiKey: user.writeKey },
    );
    expect(res.status).toBe(422);
    expect(JSON.stringify(res.body)).toContain("holds the transactions of 2 accounts (Everyday, Travel Card): leave account_id out");
  });
});
