// Import files as banks write them, through the gateway: any common encoding (asked for, declared
// by an OFX header, or detected), the import saying which; and a form's raw_file_content as text.
// Mirrors Sure's test/models/import_encoding_test.rb (its windows1250.csv, written here).
import iconv from "iconv-lite";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ImportPreflightResponseSchema, ImportResponseSchema, ImportRowDiagnosticCollectionSchema } from "@hearth/contracts";
import { testPostgresAdminUrl } from "@hearth/test-kit";
import { apiClient, signUpUser, startSystem, type ApiClient, type TestSystem, type TestUser } from "../src";

let system: TestSystem;
let api: ApiClient;
let user: TestUser;
let checking: string;

beforeAll(async () => {
  system = await startSystem({ adminUrl: testPostgresAdminUrl() });
  api = apiClient(system.url);
  user = await signUpUser(api, "encodings");
  const account = await api.post(
    "/api/v1/accounts",
    { account: { name: "Konto główne", account_type: "depository", balance: "1000", opening_balance_date: "2024-01-01" } },
    { apiKey: user.writeKey },
  );
  checking = account.body.id;
});
afterAll(async () => system?.stop());

const POLISH_CSV = [
  "Date,Name,Amount,Category,Tags,Account,Notes",
  "2024-01-01,Sklep spożywczy,-50.00,Żywność,Zakupy,Konto główne,Zakupy w sklepie",
  "2024-01-02,Kawiarnia Café,-15.50,Jedzenie,Kawa|Śniadanie,Konto główne,Poranna kawa",
  "2024-01-03,Stacja benzynowa,-120.00,Transport,Paliwo|Samochód,Konto główne,Tankowanie auta",
].join("\n");

const OFX_1252 = [
  "OFXHEADER:100",
  "DATA:OFXSGML",
  "VERSION:102",
  "SECURITY:NONE",
  "ENCODING:USASCII",
  "CHARSET:1252",
  "COMPRESSION:NONE",
  "OLDFILEUID:NONE",
  "NEWFILEUID:NONE",
  "",
  "<OFX><BANKMSGSRSV1><STMTTRNRS><STMTRS><CURDEF>USD<BANKACCTFROM><BANKID>1<ACCTID>2<ACCTTYPE>CHECKING</BANKACCTFROM>",
  "<BANKTRANLIST><DTSTART>20240101<DTEND>20240131",
  "<STMTTRN><TRNTYPE>DEBIT<DTPOSTED>20240105<TRNAMT>-4.50<FITID>enc-1<NAME>Café Zürich</STMTTRN>",
  "</BANKTRANLIST></STMTRS></STMTTRNRS></BANKMSGSRSV1></OFX>",
].join("\r\n");

function upload(path: string, file: Uint8Array, filename: string, fields: Record<string, string> = {}) {
  const form = new FormData();
  for (const [name, value] of Object.entries(fields)) form.set(name, value);
  form.set("file", new Blob([file], { type: "text/csv" }), filename);
  return fetch(`${system.url}${path}`, { method: "POST", headers: { "x-api-key": user.writeKey }, body: form });
}

const csvFields = { type: "TransactionImport", account_id: "", date_format: "%Y-%m-%d", signage_convention: "inflows_positive" };

async function rowNames(id: string): Promise<string[]> {
  const rows = ImportRowDiagnosticCollectionSchema.parse((await api.get(`/api/v1/imports/${id}/rows`, { apiKey: user.readKey })).body).data;
  return rows.map((row) => row.fields.name ?? "");
}

describe("import files in the encodings banks write", () => {
  it("reads Sure's Windows-1250 fixture rows: 3 rows, spożywczy and Café, the import saying windows-1250 (was 422 'not UTF-8')", async () => {
    const res = await upload("/api/v1/imports", iconv.encode(POLISH_CSV, "windows-1250"), "windows1250.csv", { ...csvFields, account_id: checking });
    const body = await res.json();
    expect(res.status, JSON.stringify(body)).toBe(201);
    const created = ImportResponseSchema.parse(body).data;
    expect(created).toMatchObject({ encoding: "windows-1250", stats: { rows_count: 3, valid_rows_count: 3 } });
    expect(await rowNames(created.id)).toEqual(["Sklep spożywczy", "Kawiarnia Café", "Stacja benzynowa"]);
    expect((await api.get(`/api/v1/imports/${created.id}`, { apiKey: user.readKey })).body.data.encoding).toBe("windows-1250");
  });

  it("leaves a UTF-8 file as it is ('handles UTF-8 files without modification'), and says so on JSON content too", async () => {
    const file = await upload("/api/v1/imports", new TextEncoder().encode(POLISH_CSV), "utf8.csv", { ...csvFields, account_id: checking });
    const fromFile = ImportResponseSchema.parse(await file.json()).data;
    expect(fromFile.encoding).toBe("utf-8");
    expect(await rowNames(fromFile.id)).toContain("Sklep spożywczy");
    const json = await api.post("/api/v1/imports", { ...csvFields, account_id: checking, raw_file_content: POLISH_CSV }, { apiKey: user.writeKey });
    expect(json.status).toBe(201);
    expect(json.body.data.encoding).toBe("utf-8");
  });

  it("takes the encoding a form names over detection: ISO-8859-15's euro sign", async () => {
    const csv = "Date,Name,Amount\n2024-01-04,Boulangerie €uro,-2.10";
    const res = await upload("/api/v1/imports", iconv.encode(csv, "iso-8859-15"), "latin9.csv", {
      ...csvFields,
      account_id: checking,
      encoding: "ISO-8859-15",
    });
    const created = ImportResponseSchema.parse(await res.json()).data;
    expect(created.encoding).toBe("iso-8859-15");
    expect(await rowNames(created.id)).toEqual(["Boulangerie €uro"]);
  });

  it("reads an OFX 1.x file in the charset its header names, previewed and imported alike", async () => {
    const file = iconv.encode(OFX_1252, "windows-1252");
    const preflight = await upload("/api/v1/imports/preflight", file, "statement.ofx", { type: "OfxImport", account_id: checking });
    expect(preflight.status).toBe(200);
    expect(ImportPreflightResponseSchema.parse(await preflight.json()).data).toMatchObject({ valid: true, encoding: "windows-1252" });
    const res = await upload("/api/v1/imports", file, "statement.ofx", { type: "OfxImport", account_id: checking });
    const created = ImportResponseSchema.parse(await res.json()).data;
    expect(created.encoding).toBe("windows-1252");
    expect(await rowNames(created.id)).toEqual(["Café Zürich"]);
  });

  it("reads a Windows-1252 merchants CSV (was 422 invalid_csv)", async () => {
    const form = new FormData();
    form.set("file", new Blob([iconv.encode("name\nCafé Müller & Crèche", "windows-1252")], { type: "text/csv" }), "merchants.csv");
    const res = await fetch(`${system.url}/api/v1/merchants`, { method: "POST", headers: { "x-api-key": user.writeKey }, body: form });
    const body = (await res.json()) as { merchants: { name: string }[] };
    expect(res.status, JSON.stringify(body)).toBe(201);
    expect(body.merchants.map((merchant) => merchant.name)).toEqual(["Café Müller & Crèche"]);
  });

  it("refuses an encoding it does not know, one the bytes are not in, binary data, and an encoding named for text sent as JSON", async () => {
    const unknown = await upload("/api/v1/imports", new TextEncoder().encode(POLISH_CSV), "a.csv", { ...csvFields, account_id: checking, encoding: "ebcdic" });
    expect(unknown.status).toBe(422);
    expect(await unknown.json()).toMatchObject({ error: "validation_failed", message: expect.stringContaining("encoding must name one of: utf-8") });

    const notUtf8 = await upload("/api/v1/imports", iconv.encode(POLISH_CSV, "windows-1250"), "a.csv", {
      ...csvFields,
      account_id: checking,
      encoding: "utf-8",
    });
    expect(notUtf8.status).toBe(422);
    expect(await notUtf8.json()).toMatchObject({ error: "invalid_file_type", message: "The file is not UTF-8 text" });

    const binary = await upload("/api/v1/imports", new Uint8Array([0x50, 0x4b, 0x03, 0x04, 0, 0, 8, 0, 0xc3]), "sheet.csv", {
      ...csvFields,
      account_id: checking,
    });
    expect(binary.status).toBe(422);
    expect(await binary.json()).toMatchObject({ error: "invalid_file_type", message: "The file is not text: it holds binary data" });

    const json = await api.post(
      "/api/v1/imports",
      { ...csvFields, account_id: checking, raw_file_content: POLISH_CSV, encoding: "windows-1250" },
      { apiKey: user.writeKey },
    );
    expect(json.status).toBe(422);
    expect(json.body).toMatchObject({ error: "validation_failed", message: expect.stringContaining("raw_file_content sent as text is already decoded") });
  });
});

describe("a form's raw_file_content", () => {
  it("is the content when the form has no file, as Rails reads params[:raw_file_content] (was 422 missing_content)", async () => {
    const form = new FormData();
    for (const [name, value] of Object.entries({ ...csvFields, account_id: checking, raw_file_content: "Date,Name,Amount\n2024-01-06,Form text row,-1.00" })) {
      form.set(name, value);
    }
    const res = await fetch(`${system.url}/api/v1/imports`, { method: "POST", headers: { "x-api-key": user.writeKey }, body: form });
    const body = await res.json();
    expect(res.status, JSON.stringify(body)).toBe(201);
    const created = ImportResponseSchema.parse(body).data;
    expect(created).toMatchObject({ encoding: "utf-8", stats: { rows_count: 1 } });
    expect(await rowNames(created.id)).toEqual(["Form text row"]);
  });

  it("is refused beside a file: the request must say which is the content", async () => {
    const form = new FormData();
    form.set("type", "TransactionImport");
    form.set("raw_file_content", "Date,Name,Amount\n2024-01-06,Text,-1.00");
    form.set("file", new Blob(["Date,Name,Amount\n2024-01-06,File,-1.00"], { type: "text/csv" }), "a.csv");
    const res = await fetch(`${system.url}/api/v1/imports`, { method: "POST", headers: { "x-api-key": user.writeKey }, body: form });
    expect(res.status).toBe(422);
    expect(await res.json()).toMatchObject({ error: "validation_failed", message: "Send the file or raw_file_content, not both" });
  });

  it("is cut off past the file limit like a file", async () => {
    const form = new FormData();
    form.set("type", "TransactionImport");
    form.set("raw_file_content", `Date,Name,Amount\n${"x".repeat(10 * 1024 * 1024)}`);
    const res = await fetch(`${system.url}/api/v1/imports`, { method: "POST", headers: { "x-api-key": user.writeKey }, body: form });
    expect(res.status).toBe(422);
    expect(await res.json()).toMatchObject({ error: "file_too_large" });
  });
});
