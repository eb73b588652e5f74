// An OFX statement in another currency than its account (CURDEF CAD into a USD account), through
// the gateway. It was accepted, reported complete, and then every sync of the account failed for
// want of a rate while its balance showed 0.00. Now preflight says so, and publishing is refused
// with a 422 naming the rate to add, until the family has it.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ImportPreflightResponseSchema, ImportResponseSchema } from "@hearth/contracts";
import { testPostgresAdminUrl } from "@hearth/test-kit";
import { apiClient, eventually, signUpUser, startSystem, type ApiClient, type TestSystem, type TestUser } from "../src";

let system: TestSystem;
let api: ApiClient;
let user: TestUser;
let account: string;

beforeAll(async () => {
  system = await startSystem({ adminUrl: testPostgresAdminUrl() });
  api = apiClient(system.url);
  user = await signUpUser(api, "ofx-currency");
  const created = await api.post(
    "/api/v1/accounts",
    { account: { name: "US checking", account_type: "depository", balance: "100", currency: "USD", opening_balance_date: "2024-01-01" } },
    { apiKey: user.writeKey },
  );
  account = created.body.id;
});
afterAll(async () => system?.stop());

const statementIn = (currency: string) =>
  [
    "OFXHEADER:100",
    "DATA:OFXSGML",
    "VERSION:102",
    "",
    `<OFX><BANKMSGSRSV1><STMTTRNRS><STMTRS><CURDEF>${currency}<BANKACCTFROM><BANKID>1<ACCTID>9876<ACCTTYPE>CHECKING</BANKACCTFROM>`,
    "<BANKTRANLIST><DTSTART>20240101<DTEND>20240131",
    "<STMTTRN><TRNTYPE>DEBIT<DTPOSTED>20240105<TRNAMT>-50.00<FITID>cad-1<NAME>Tim Hortons</STMTTRN>",
    "<STMTTRN><TRNTYPE>CREDIT<DTPOSTED>20240110<TRNAMT>200.00<FITID>cad-2<NAME>Refund</STMTTRN>",
    "</BANKTRANLIST></STMTRS></STMTTRNRS></BANKMSGSRSV1></OFX>",
  ].join("\n");

const NEEDS_RATE =
  "The file's transactions are in CAD and the account's currency is USD: add an exchange rate from CAD to USD dated 2024-01-05 or earlier (POST /api/v1/exchange_rates), then publish";

const ofx = (extra: Record<string, unknown> = {}) => ({ type: "OfxImport", account_id: account, raw_file_content: statementIn("CAD"), ...extra });

async function addRate(date: string) {
  const res = await api.post("/api/v1/exchange_rates", { from: "CAD", to: "USD", date, rate: "0.75" }, { apiKey: user.writeKey });
  expect(res.status, JSON.stringify(res.body)).toBeLessThan(300);
}

describe("an OFX statement in another currency than its account", () => {
  it("is reported by preflight and refused at publish until the family has a rate on or before its first day", async () => {
    const preflight = await api.post("/api/v1/imports/preflight", ofx(), { apiKey: user.readKey });
    expect(ImportPreflightResponseSchema.parse(preflight.body).data).toMatchObject({
      valid: false,
      errors: [{ code: "missing_exchange_rates", message: NEEDS_RATE }],
    });

    // Asked to publish at upload: stored, and refused saying why (as rows in error are).
    const uploaded = await api.post("/api/v1/imports", ofx({ publish: "true" }), { apiKey: user.writeKey });
    expect(uploaded.status).toBe(422);
    expect(uploaded.body).toMatchObject({ error: "not_publishable", message: NEEDS_RATE });
    const importId = uploaded.body.import_id as string;
    expect(importId).toBeTruthy();

    // A rate dated after the first transaction does not convert it.
    await addRate("2024-01-07");
    const early = await api.post(`/api/v1/imports/${importId}/publish`, {}, { apiKey: user.writeKey });
    expect(early.status).toBe(422);
    expect(early.body).toMatchObject({ error: "not_publishable", message: NEEDS_RATE });

    await addRate("2024-01-01");
    const checked = await api.post("/api/v1/imports/preflight", ofx(), { apiKey: user.readKey });
    expect(ImportPreflightResponseSchema.parse(checked.body).data).toMatchObject({
      valid: true,
      warnings: ["The file's transactions in CAD will be converted to the account's USD with the family's exchange rates"],
    });
    const published = await api.post(`/api/v1/imports/${importId}/publish`, {}, { apiKey: user.writeKey });
    expect(published.status, JSON.stringify(published.body)).toBe(202);
    await eventually(async () => {
      const detail = ImportResponseSchema.parse((await api.get(`/api/v1/imports/${importId}`, { apiKey: user.readKey })).body).data;
      expect(detail.status).toBe("complete");
    });
    // The account's sync converts them: 100 - 50 CAD x 0.75 + 200 CAD x 0.75 = 212.50 USD.
    await eventually(async () => {
      const shown = await api.get(`/api/v1/accounts/${account}`, { apiKey: user.readKey });
      expect(shown.body.balance_cents).toBe(21250);
    });
  });

  it("is no concern when the statement is in the account's currency", async () => {
    const preflight = await api.post("/api/v1/imports/preflight", { ...ofx(), raw_file_content: statementIn("USD") }, { apiKey: user.readKey });
    expect(ImportPreflightResponseSchema.parse(preflight.body).data).toMatchObject({ valid: true, errors: [], warnings: [] });
  });
});
