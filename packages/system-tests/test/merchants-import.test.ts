// POST /api/v1/merchants as Sure's merchants controller takes it: a multipart CSV upload in
// `file` (Sure compatibility), beside Hearth's JSON create on the same path. The cases under
// "Sure's tests" mirror test/controllers/api/v1/merchants_controller_test.rb, "Create (CSV import)".
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { MERCHANT_IMPORT_LIMITS, MerchantImportSchema, MerchantSchema } from "@hearth/contracts";
import { testPostgresAdminUrl } from "@hearth/test-kit";
import { apiClient, signUpUser, startSystem, type ApiClient, type TestSystem, type TestUser } from "../src";

let system: TestSystem;
let api: ApiClient;
let alice: TestUser;
let bob: TestUser; // another family

beforeAll(async () => {
  system = await startSystem({ adminUrl: testPostgresAdminUrl() });
  api = apiClient(system.url);
  alice = await signUpUser(api, "merchant-import");
  bob = await signUpUser(api, "merchant-import-other");
});
afterAll(async () => system?.stop());

interface Upload {
  content?: string | Uint8Array;
  type?: string;
  filename?: string;
  field?: string;
  apiKey?: string;
  extra?: Record<string, string>;
}

/** Sends a multipart form the way a browser or Sure's test client does (file part with a filename and type). */
async function upload({ content = "", type = "text/csv", filename = "merchants.csv", field = "file", apiKey = alice.writeKey, extra = {} }: Upload) {
  const form = new FormData();
  for (const [name, value] of Object.entries(extra)) form.append(name, value);
  form.append(field, new Blob([content], { type }), filename);
  const response = await fetch(`${system.url}/api/v1/merchants`, { method: "POST", headers: apiKey ? { "x-api-key": apiKey } : {}, body: form });
  return { status: response.status, body: (await response.json()) as any };
}

async function merchantNames(user: TestUser = alice): Promise<string[]> {
  return (await api.get("/api/v1/merchants", { apiKey: user.readKey })).body.map((merchant: { name: string }) => merchant.name);
}

describe("Sure's tests", () => {
  it("create requires authentication", async () => {
    const res = await upload({ content: "name\nNew Merchant", apiKey: "" });
    expect(res.status).toBe(401);
    expect(res.body.error).toBe("unauthorized");
  });

  it("create rejects read-only api key", async () => {
    const res = await upload({ content: "name\nNew Merchant", apiKey: alice.readKey });
    expect(res.status).toBe(403);
    expect(await merchantNames()).not.toContain("New Merchant");
  });

  it("create imports merchants from csv", async () => {
    const res = await upload({ content: "name,color,website_url\nImported Merchant,#ff0000,https://example.com\nAnother Merchant,," });
    expect(res.status).toBe(201);
    const body = MerchantImportSchema.parse(res.body);
    expect(body).toMatchObject({ imported: 2, skipped: 0 });
    expect(body.merchants.map((merchant) => merchant.name)).toEqual(["Imported Merchant", "Another Merchant"]);
    expect(body.merchants.every((merchant) => merchant.type === "FamilyMerchant" && MerchantSchema.safeParse(merchant).success)).toBe(true);
    expect(await merchantNames()).toEqual(expect.arrayContaining(["Imported Merchant", "Another Merchant"]));
    expect(await merchantNames(bob)).toEqual([]);
  });

  it("create skips duplicate merchant names", async () => {
    expect((await api.post("/api/v1/merchants", { merchant: { name: "Existing Merchant" } }, { apiKey: alice.writeKey })).status).toBe(201);
    const res = await upload({ content: "name\nExisting Merchant\nBrand New Merchant" });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({ imported: 1, skipped: 1, merchants: [{ name: "Brand New Merchant" }] });
  });

  it("create returns 422 when file is missing", async () => {
    // Sure's test posts no body at all.
    const bodiless = await api.request("POST", "/api/v1/merchants", { apiKey: alice.writeKey });
    expect(bodiless.status).toBe(422);
    expect(bodiless.body).toMatchObject({ error: "missing_file", message: "Please provide a CSV file." });
    // A form without the file, or with the file under another field, is missing it too.
    const otherField = await upload({ content: "name\nX", field: "csv" });
    expect(otherField.status).toBe(422);
    expect(otherField.body.error).toBe("missing_file");
  });

  it("create returns 422 when csv is missing name column", async () => {
    const res = await upload({ content: "color,website_url\n#ff0000,https://example.com" });
    expect(res.status).toBe(422);
    expect(res.body).toMatchObject({ error: "missing_column", message: "CSV must include a 'name' column." });
  });

  it("create returns 422 for invalid file type", async () => {
    const res = await upload({ content: "not a csv", type: "application/pdf", filename: "merchants.pdf" });
    expect(res.status).toBe(422);
    expect(res.body.error).toBe("invalid_file_type");
  });
});

describe("Sure's other answers and Hearth's limits", () => {
  it("a file past the size cap is 422 file_too_large, and nothing is imported", async () => {
    const big = `name\n${"Big Merchant ".repeat(Math.ceil(MERCHANT_IMPORT_LIMITS.maxBytes / 12))}`;
    const res = await upload({ content: big });
    expect(res.status).toBe(422);
    expect(res.body).toMatchObject({ error: "file_too_large", message: expect.stringContaining("Maximum size is 512KB") });
  });

  it("a file with more rows than the cap is 422 file_too_large", async () => {
    const rows = Array.from({ length: MERCHANT_IMPORT_LIMITS.maxRows + 1 }, (_, i) => `Row ${i}`);
    const res = await upload({ content: `name\n${rows.join("\n")}` });
    expect(res.status).toBe(422);
    expect(res.body).toMatchObject({ error: "file_too_large", message: expect.stringContaining(`${MERCHANT_IMPORT_LIMITS.maxRows} rows`) });
    expect(await merchantNames()).not.toContain("Row 0");
  });

  it("text that is no CSV, or no text at all, is 422 invalid_csv; Latin-1 text is read", async () => {
    const unclosed = await upload({ content: 'name\n"Unclosed Merchant' });
    expect(unclosed.status).toBe(422);
    expect(unclosed.body).toMatchObject({ error: "invalid_csv", message: expect.stringContaining("CSV could not be parsed") });
    const binary = await upload({ content: new Uint8Array([0x6e, 0x61, 0x6d, 0x65, 0x0a, 0x00, 0x01, 0xe9]) });
    expect(binary.status).toBe(422);
    expect(binary.body).toMatchObject({ error: "invalid_csv", message: "CSV could not be parsed: The file is not text: it holds binary data" });
    const latin1 = await upload({ content: new Uint8Array([0x6e, 0x61, 0x6d, 0x65, 0x0a, 0x43, 0x61, 0x66, 0xe9]) });
    expect(latin1.status).toBe(201);
    expect(latin1.body.merchants.map((merchant: { name: string }) => merchant.name)).toEqual(["Café"]);
  });

  it("reads headers as Sure normalises them, a BOM, quoted names and CRLF; skips repeats and names too long, passes over blank names uncounted", async () => {
    const content = `\uFEFF NAME* ,Color\r\n"Smith, Jones",#00ff00\r\n , \r\nDup Shop,red\r\nDup Shop,\r\n${"L".repeat(201)},\r\n`;
    const res = await upload({ content });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({ imported: 2, skipped: 2 });
    expect(res.body.merchants.map((merchant: { name: string }) => merchant.name)).toEqual(["Smith, Jones", "Dup Shop"]);
    // "Merchant Name" normalises to merchant_name, which is not name.
    expect((await upload({ content: "Merchant Name\nX" })).body.error).toBe("missing_column");
  });

  it("ignores other form fields, and keeps the JSON create on the same path", async () => {
    const res = await upload({ content: "name\nForm Merchant", extra: { note: "hello" } });
    expect(res.status).toBe(201);
    expect(res.body.imported).toBe(1);
    const json = await api.post("/api/v1/merchants", { merchant: { name: "Json Merchant" } }, { apiKey: alice.writeKey });
    expect(json.status).toBe(201);
    expect(MerchantSchema.parse(json.body).name).toBe("Json Merchant");
  });

  it("answers a multipart body it cannot read (no boundary, cut short) 400 bad_request", async () => {
    const send = (contentType: string, body: string) =>
      fetch(`${system.url}/api/v1/merchants`, { method: "POST", headers: { "x-api-key": alice.writeKey, "content-type": contentType }, body });
    const noBoundary = await send("multipart/form-data", "name\nX");
    expect(noBoundary.status).toBe(400);
    expect(((await noBoundary.json()) as { error: string }).error).toBe("bad_request");
    const cut = await send(
      "multipart/form-data; boundary=XYZ",
      '--XYZ\r\nContent-Disposition: form-data; name="file"; filename="m.csv"\r\nContent-Type: text/csv\r\n\r\nname\nCut',
    );
    expect(cut.status).toBe(400);
  });

  it("refuses a multipart body on a JSON-only route with 415", async () => {
    const form = new FormData();
    form.append("file", new Blob(["name\nX"], { type: "text/csv" }), "tags.csv");
    const res = await fetch(`${system.url}/api/v1/tags`, { method: "POST", headers: { "x-api-key": alice.writeKey }, body: form });
    expect(res.status).toBe(415);
  });
});
