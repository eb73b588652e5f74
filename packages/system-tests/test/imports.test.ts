// CSV imports through the gateway as a Sure client uses them (data in): upload as JSON text or a
// multipart file, rows read and checked at once, preflight, publish in the background (rules
// applied, duplicates skipped, all or nothing), progress, revert. Cases mirror Sure's
// test/controllers/api/v1/imports_controller_test.rb where named.
import { request } from "node:http";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ImportCollectionSchema, ImportResponseSchema, ImportRowDiagnosticCollectionSchema } from "@hearth/contracts";
import { testPostgresAdminUrl } from "@hearth/test-kit";
import { apiClient, eventually, signUpUser, startSystem, type ApiClient, type TestSystem, type TestUser } from "../src";

let system: TestSystem;
let api: ApiClient;
let user: TestUser;
let checking: string;

beforeAll(async () => {
  system = await startSystem({ adminUrl: testPostgresAdminUrl() });
  api = apiClient(system.url);
  user = await signUpUser(api, "importer");
  const account = await api.post(
    "/api/v1/accounts",
    { account: { name: "Everyday", account_type: "depository", balance: "1000", opening_balance_date: "2026-01-01" } },
    { apiKey: user.writeKey },
  );
  checking = account.body.id;
});
afterAll(async () => system?.stop());

const CSV = [
  "date,amount,name,category,tags,notes",
  "2026-03-01,-4.50,Corner Coffee,Coffee runs,morning|work,flat white",
  "2026-03-01,-4.50,Corner Coffee,Coffee runs,morning,",
  '2026-03-02,"1,250.00",Salary,Pay,,March',
].join("\n");

function create(body: Record<string, unknown>, key = user.writeKey) {
  return api.post("/api/v1/imports", { type: "TransactionImport", account_id: checking, date_format: "%Y-%m-%d", ...body }, { apiKey: key });
}

async function completed(id: string) {
  return eventually(async () => {
    const detail = ImportResponseSchema.parse((await api.get(`/api/v1/imports/${id}`, { apiKey: user.readKey })).body).data;
    expect(detail.status).toBe("complete");
    return detail;
  });
}

async function transactionsNamed(name: string) {
  const res = await api.get(`/api/v1/transactions?account_id=${checking}&search=${encodeURIComponent(name)}&per_page=100`, { apiKey: user.readKey });
  return res.body.transactions as { name: string; amount: string; category: { name: string } | null; tags: { name: string }[]; notes: string | null }[];
}

describe("POST /api/v1/imports", () => {
  it("reads and checks the rows at once, publishes in the background with categories and tags made, and reports progress ('create with raw content')", async () => {
    const res = await create({ raw_file_content: CSV, publish: "true" });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    const created = ImportResponseSchema.parse(res.body).data;
    expect(created).toMatchObject({ type: "TransactionImport", account_id: checking, stats: { rows_count: 3, valid_rows_count: 3, invalid_rows_count: 0 } });
    expect(created.configuration).toMatchObject({ date_format: "%Y-%m-%d", number_format: "1,234.56", signage_convention: "inflows_positive" });

    const done = await completed(created.id);
    expect(done.progress).toEqual({ rows_done: 3, rows_total: 3 });
    expect(done.result).toEqual({ transactions: 3, skipped_duplicates: 0, claimed_duplicates: 0 });
    expect(done.status_detail).toMatchObject({ terminal: true, revertable: true, publishable: false });

    const coffees = await transactionsNamed("Corner Coffee");
    // Two identical rows of one file are two purchases: both kept.
    expect(coffees).toHaveLength(2);
    expect(coffees.every((t) => t.category?.name === "Coffee runs")).toBe(true);
    expect(coffees.flatMap((t) => t.tags.map((tag) => tag.name)).sort()).toEqual(["morning", "morning", "work"]);
    const [salary] = await transactionsNamed("Salary");
    expect(salary).toMatchObject({ notes: "March" });
    expect(salary?.amount).toMatch(/1,250\.00/);

    const list = ImportCollectionSchema.parse((await api.get("/api/v1/imports?status=complete&type=TransactionImport", { apiKey: user.readKey })).body);
    expect(list.data.map((i) => i.id)).toContain(created.id);
  });

  it("skips rows already in the account (same day, amount, currency and name), one for one", async () => {
    const again = await create({ raw_file_content: CSV, publish: "true" });
    expect(again.status).toBe(201);
    const done = await completed(again.body.data.id);
    expect(done.result).toEqual({ transactions: 0, skipped_duplicates: 3, claimed_duplicates: 3 });
    const third = ["date,amount,name", "2026-03-01,-4.50,Corner Coffee", "2026-03-01,-4.50,Corner Coffee", "2026-03-01,-4.50,Corner Coffee"].join("\n");
    const more = await create({ raw_file_content: third, publish: "true" });
    expect((await completed(more.body.data.id)).result).toEqual({ transactions: 1, skipped_duplicates: 2, claimed_duplicates: 2 });
    expect(await transactionsNamed("Corner Coffee")).toHaveLength(3);
  });

  // Sure's transaction_import_test.rb "does not create duplicate when matching transaction exists with same name"
  // and TransactionImport#import! 37-53: the duplicate is updated from the row and claimed.
  it("sets a duplicate row's category, tags and notes on the transaction it matched, and a revert gives them back", async () => {
    const [mine, fromFile] = await Promise.all(
      ["Mine", "From file"].map((name) => api.post("/api/v1/tags", { tag: { name: `${name} tag` } }, { apiKey: user.writeKey })),
    );
    const ownCategory = await api.post("/api/v1/categories", { category: { name: "Own choice" } }, { apiKey: user.writeKey });
    const existing = await api.post(
      "/api/v1/transactions",
      {
        transaction: {
          account_id: checking,
          date: "2026-03-09",
          amount: "12.00",
          name: "Book Nook",
          nature: "expense",
          notes: "my note",
          category_id: ownCategory.body.id,
          tag_ids: [mine!.body.id],
        },
      },
      { apiKey: user.writeKey },
    );
    expect(existing.status, JSON.stringify(existing.body)).toBe(201);
    const read = async () => (await api.get(`/api/v1/transactions/${existing.body.id}`, { apiKey: user.readKey })).body;

    const csv = ["date,amount,name,category,tags,notes", "2026-03-09,-12.00,Book Nook,Reading,From file tag,bought a novel"].join("\n");
    const res = await create({ raw_file_content: csv, publish: "true" });
    const done = await completed(res.body.data.id);
    expect(done.result).toEqual({ transactions: 0, skipped_duplicates: 1, claimed_duplicates: 1 });
    expect(await read()).toMatchObject({ notes: "bought a novel", category: { name: "Reading" }, tags: [{ id: fromFile!.body.id }] });

    const reverted = await api.post(`/api/v1/imports/${res.body.data.id}/revert`, {}, { apiKey: user.writeKey });
    expect(reverted.status).toBe(200);
    expect(await read()).toMatchObject({ notes: "my note", category: { id: ownCategory.body.id }, tags: [{ id: mine!.body.id }] });
    // The category the import made is gone with it: nothing uses it any more.
    const categories = (await api.get("/api/v1/categories?per_page=100", { apiKey: user.readKey })).body.categories as { name: string }[];
    expect(categories.map((category) => category.name)).not.toContain("Reading");
  });

  it("leaves a change made after the import when it is reverted", async () => {
    const existing = await api.post(
      "/api/v1/transactions",
      { transaction: { account_id: checking, date: "2026-03-10", amount: "3.00", name: "Kiosk", nature: "expense", notes: "first" } },
      { apiKey: user.writeKey },
    );
    const res = await create({ raw_file_content: "date,amount,name,notes\n2026-03-10,-3.00,Kiosk,from the bank", publish: "true" });
    await completed(res.body.data.id);
    await api.patch(`/api/v1/transactions/${existing.body.id}`, { transaction: { notes: "edited since" } }, { apiKey: user.writeKey });
    await api.post(`/api/v1/imports/${res.body.data.id}/revert`, {}, { apiKey: user.writeKey });
    expect((await api.get(`/api/v1/transactions/${existing.body.id}`, { apiKey: user.readKey })).body.notes).toBe("edited since");
  });

  it("applies the family's rules to what it writes", async () => {
    const category = await api.post("/api/v1/categories", { category: { name: "Bakeries" } }, { apiKey: user.writeKey });
    await api.post(
      "/api/v1/rules",
      {
        rule: {
          name: "Bread",
          conditions: [{ condition_type: "transaction_name", operator: "like", value: "bakery" }],
          actions: [{ action_type: "set_transaction_category", value: category.body.id }],
        },
      },
      { apiKey: user.writeKey },
    );
    const res = await create({ raw_file_content: "date,amount,name\n2026-03-05,-3.20,Village Bakery", publish: "true" });
    await completed(res.body.data.id);
    const [bread] = await transactionsNamed("Village Bakery");
    expect(bread?.category?.name).toBe("Bakeries");
  });

  it("keeps rows with errors visible and refuses to publish them (422 not_publishable with import_id)", async () => {
    const res = await create({ raw_file_content: "date,amount,name\n2026-02-30,-1.00,Bad day\n2026-03-06,abc,Bad amount\n2026-03-06,-2.00,Fine" });
    expect(res.status).toBe(201);
    const id = res.body.data.id as string;
    expect(res.body.data.stats).toMatchObject({ rows_count: 3, valid_rows_count: 1, invalid_rows_count: 2 });
    const rows = ImportRowDiagnosticCollectionSchema.parse((await api.get(`/api/v1/imports/${id}/rows`, { apiKey: user.readKey })).body);
    expect(rows.data.map((row) => row.valid)).toEqual([false, false, true]);
    expect(rows.data[0]?.errors.join(" ")).toMatch(/date/i);
    expect(rows.data[1]?.errors.join(" ")).toMatch(/amount/i);
    expect(rows.meta).toMatchObject({ page: 1 });

    const publish = await api.post(`/api/v1/imports/${id}/publish`, {}, { apiKey: user.writeKey });
    expect(publish.status).toBe(422);
    expect(publish.body).toMatchObject({ error: "not_publishable", import_id: id });
    const asked = await create({ raw_file_content: "date,amount,name\nnope,-1,Bad", publish: "true" });
    expect(asked.status).toBe(422);
    expect(asked.body).toMatchObject({ error: "not_publishable" });
    expect(asked.body.import_id).toMatch(/^[0-9a-f-]{36}$/);
  });

  it("is all or nothing: a failure while writing leaves no row and the import failed with its error", async () => {
    const before = await system.db.finance.entry.count({ where: { accountId: checking } });
    await system.db.finance.$executeRawUnsafe(`
      CREATE OR REPLACE FUNCTION refuse_boom() RETURNS trigger AS $$
      BEGIN IF NEW.name = 'BOOM' THEN RAISE EXCEPTION 'boom'; END IF; RETURN NEW; END $$ LANGUAGE plpgsql`);
    await system.db.finance.$executeRawUnsafe(`CREATE TRIGGER refuse_boom BEFORE INSERT ON entries FOR EACH ROW EXECUTE FUNCTION refuse_boom()`);
    try {
      // 1,500 rows: the first batch of 1,000 is written before row 1,200 fails.
      const lines = ["date,amount,name", ...Array.from({ length: 1500 }, (_, i) => `2026-04-01,-1.00,${i === 1199 ? "BOOM" : `Row ${i}`}`)];
      const res = await create({ raw_file_content: lines.join("\n"), publish: "true" });
      expect(res.status).toBe(201);
      const failed = await eventually(async () => {
        const detail = (await api.get(`/api/v1/imports/${res.body.data.id}`, { apiKey: user.readKey })).body.data;
        expect(detail.status).toBe("failed");
        return detail;
      });
      expect(failed.error).toBe("The import could not be published");
      expect(await system.db.finance.entry.count({ where: { accountId: checking } })).toBe(before);
    } finally {
      await system.db.finance.$executeRawUnsafe(`DROP TRIGGER refuse_boom ON entries`);
    }
  });

  it("fails when the import's account was deleted after the upload, writing nothing", async () => {
    const doomed = await api.post("/api/v1/accounts", { account: { name: "Soon gone", account_type: "depository", balance: "0" } }, { apiKey: user.writeKey });
    const uploaded = await api.post(
      "/api/v1/imports",
      { type: "TransactionImport", account_id: doomed.body.id, date_format: "%Y-%m-%d", raw_file_content: "date,amount,name\n2026-03-10,-1.00,Orphan" },
      { apiKey: user.writeKey },
    );
    expect((await api.delete(`/api/v1/accounts/${doomed.body.id}`, { apiKey: user.writeKey })).status).toBe(200);
    expect((await api.post(`/api/v1/imports/${uploaded.body.data.id}/publish`, {}, { apiKey: user.writeKey })).status).toBe(202);
    await eventually(async () => {
      const detail = (await api.get(`/api/v1/imports/${uploaded.body.data.id}`, { apiKey: user.readKey })).body.data;
      expect(detail).toMatchObject({ status: "failed", error: "The import's account no longer exists" });
    });
    expect(await system.db.finance.entry.count({ where: { importId: uploaded.body.data.id } })).toBe(0);
  });

  it("refuses to publish while a row names an account the family does not have, naming it (was accepted, then failed)", async () => {
    const res = await api.post(
      "/api/v1/imports",
      {
        type: "TransactionImport",
        date_format: "%Y-%m-%d",
        raw_file_content: "date,amount,name,account\n2026-03-07,-1.00,Somewhere,Nowhere Bank",
        publish: "true",
      },
      { apiKey: user.writeKey },
    );
    expect(res.status).toBe(422);
    expect(res.body).toMatchObject({ error: "not_publishable", message: expect.stringContaining('"Nowhere Bank"') });
    const detail = (await api.get(`/api/v1/imports/${res.body.import_id}`, { apiKey: user.readKey })).body.data;
    expect(detail).toMatchObject({ status: "pending", status_detail: { publishable: false }, stats: { mappings_count: 1, unassigned_mappings_count: 1 } });
  });

  it("takes a multipart file, refusing other types and oversized files ('create with file upload', 'rejects invalid file type')", async () => {
    const form = new FormData();
    form.set("type", "TransactionImport");
    form.set("account_id", checking);
    form.set("date_format", "%Y-%m-%d");
    form.set("file", new Blob(["date,amount,name\n2026-03-08,-9.99,Uploaded"], { type: "text/csv" }), "bank.csv");
    const res = await fetch(`${system.url}/api/v1/imports`, { method: "POST", headers: { "x-api-key": user.writeKey }, body: form });
    expect(res.status).toBe(201);
    expect(ImportResponseSchema.parse(await res.json()).data.stats.rows_count).toBe(1);

    const pdf = new FormData();
    pdf.set("file", new Blob(["%PDF-1.4"], { type: "application/pdf" }), "statement.pdf");
    const refused = await fetch(`${system.url}/api/v1/imports`, { method: "POST", headers: { "x-api-key": user.writeKey }, body: pdf });
    expect(refused.status).toBe(422);
    expect(await refused.json()).toMatchObject({ error: "invalid_file_type" });

    const big = new FormData();
    big.set("file", new Blob(["date,amount,name\n", "x".repeat(10 * 1024 * 1024)], { type: "text/csv" }), "big.csv");
    const tooLarge = await fetch(`${system.url}/api/v1/imports`, { method: "POST", headers: { "x-api-key": user.writeKey }, body: big });
    expect(tooLarge.status).toBe(422);
    expect(await tooLarge.json()).toMatchObject({ error: "file_too_large", message: "File is too large. Maximum size is 10MB." });
  });

  it("reads no large body before the credential is checked: an anonymous 20 MB body is a 401, never parsed (was a 400 'Malformed JSON')", async () => {
    const anonymous = await fetch(`${system.url}/api/v1/imports`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: `{${"x".repeat(20 * 1024 * 1024)}`,
    });
    expect(anonymous.status).toBe(401);
    // With a credential the route's own limit applies: the same malformed body is read, and refused as such.
    const signed = await fetch(`${system.url}/api/v1/imports`, {
      method: "POST",
      headers: { "content-type": "application/json", "x-api-key": user.writeKey },
      body: `{${"x".repeat(1024)}`,
    });
    expect(signed.status).toBe(400);
  });

  it("answers Sure's errors for missing or oversized content and needs write scope", async () => {
    expect((await create({})).body).toMatchObject({ error: "missing_content" });
    const huge = await create({ raw_file_content: `date,amount,name\n${"y".repeat(10 * 1024 * 1024)}` });
    expect(huge.status).toBe(422);
    expect(huge.body).toMatchObject({ error: "content_too_large", message: "Content is too large. Maximum size is 10MB." });
    expect((await create({ raw_file_content: CSV }, user.readKey)).status).toBe(403);
    // Sure: 422 "Account must belong to your family" (imports_controller_test.rb 'should not create import for account in another family').
    expect((await create({ raw_file_content: CSV, account_id: "00000000-0000-7000-8000-000000000000" })).status).toBe(422);
    const badConfig = await create({ raw_file_content: CSV, col_sep: "|" });
    expect(badConfig.status).toBe(422);
  });
});

describe("POST /api/v1/imports/preflight", () => {
  it("reports headers and what is missing, writing nothing ('preflight returns csv stats')", async () => {
    const before = await system.db.finance.import.count();
    const res = await api.post(
      "/api/v1/imports/preflight",
      { type: "TransactionImport", raw_file_content: "when,amount\n2026-03-01,1" },
      { apiKey: user.readKey },
    );
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.data).toMatchObject({ type: "TransactionImport", valid: false, headers: ["when", "amount"], stats: { rows_count: 1 } });
    expect(res.body.data.missing_required_headers).toContain("date");
    expect(await system.db.finance.import.count()).toBe(before);
  });
});

describe("large uploads between families", () => {
  it("takes one family's large uploads in turns, answers those past its share 429 at once, and serves another family meanwhile", async () => {
    const rows = ["date,amount,name"];
    for (let i = 0; rows.length < 120_000; i++) rows.push(`2026-01-${String(1 + (i % 28)).padStart(2, "0")},-${i}.25,"Shop, branch ${i}"`);
    const file = rows.join("\n");
    expect(file.length).toBeGreaterThan(2 * 1024 * 1024);
    const other = await signUpUser(api, "quiet-importer");
    const uploads = Array.from({ length: 8 }, () =>
      api.post("/api/v1/imports/preflight", { type: "TransactionImport", raw_file_content: file }, { apiKey: user.readKey }),
    );
    const quiet = await api.post("/api/v1/imports", { type: "TransactionImport", raw_file_content: CSV }, { apiKey: other.writeKey });
    expect(quiet.status, JSON.stringify(quiet.body)).toBe(201);
    const answers = await Promise.all(uploads);
    const read = answers.filter((answer) => answer.status === 200);
    const refused = answers.filter((answer) => answer.status !== 200);
    // Two at a time, two of the family's waiting: at least those four are read, in full.
    expect(read.length).toBeGreaterThanOrEqual(4);
    for (const answer of read) expect(answer.body.data.stats.rows_count).toBe(10_001);
    expect(refused.length).toBeGreaterThan(0);
    for (const answer of refused) expect(answer).toMatchObject({ status: 429, body: { error: "rate_limit_exceeded" } });
  });
});

describe("slow large uploads", () => {
  it("lets a family's slow uploads hold only its own places: another family's large upload is read meanwhile (it waited 5 s, then 429)", async () => {
    const rows = ["date,amount,name"];
    for (let i = 0; rows.length < 60_000; i++) rows.push(`2026-02-${String(1 + (i % 28)).padStart(2, "0")},-${i}.10,"Market ${i}"`);
    const body = JSON.stringify({ type: "TransactionImport", raw_file_content: rows.join("\n") });
    expect(body.length).toBeGreaterThan(1024 * 1024);
    // Two uploads of one family that send half their body, then stall (a slow phone, or on purpose).
    const stalled = Array.from({ length: 2 }, () => {
      const req = request(`${system.url}/api/v1/imports/preflight`, {
        method: "POST",
        headers: { "content-type": "application/json", "content-length": String(Buffer.byteLength(body)), "x-api-key": user.readKey },
      });
      req.on("error", () => undefined);
      req.write(body.slice(0, body.length / 2));
      return req;
    });
    await new Promise((resolve) => setTimeout(resolve, 300));
    const other = await signUpUser(api, "patient-importer");
    const started = performance.now();
    const served = await api.post("/api/v1/imports/preflight", JSON.parse(body) as Record<string, unknown>, { apiKey: other.readKey });
    expect(served.status, JSON.stringify(served.body)).toBe(200);
    expect(performance.now() - started).toBeLessThan(4_000);
    for (const req of stalled) req.destroy();
  });
});

describe("a large upload's credential", () => {
  it("is checked again once the upload has arrived: a key revoked while it was being sent writes nothing (401)", async () => {
    const owner = await signUpUser(api, "revoked-importer");
    const rows = ["date,amount,name"];
    for (let i = 0; rows.length < 60_000; i++) rows.push(`2026-02-${String(1 + (i % 28)).padStart(2, "0")},-${i}.10,"Market ${i}"`);
    const body = JSON.stringify({ type: "TransactionImport", raw_file_content: rows.join("\n") });
    const answer = new Promise<number>((resolve, reject) => {
      const req = request(
        `${system.url}/api/v1/imports`,
        { method: "POST", headers: { "content-type": "application/json", "content-length": String(Buffer.byteLength(body)), "x-api-key": owner.writeKey } },
        (res) => {
          res.resume();
          resolve(res.statusCode ?? 0);
        },
      );
      req.on("error", reject);
      req.write(body.slice(0, body.length / 2));
      // Half sent; the key is revoked; then the rest arrives.
      setTimeout(async () => {
        const keys = await api.get("/api/v1/api_keys", { token: owner.accessToken });
        const key = (keys.body.api_keys as { id: string; scopes: string[] }[]).find((row) => row.scopes.join() === "read_write")!;
        expect((await api.delete(`/api/v1/api_keys/${key.id}`, { token: owner.accessToken })).status).toBe(204);
        // Every instance hears of a revoked credential within a second (credential-cache.test.ts).
        await new Promise((resolve) => setTimeout(resolve, 1_100));
        req.end(body.slice(body.length / 2));
      }, 300);
    });
    expect(await answer).toBe(401);
    const imports = await api.get("/api/v1/imports", { token: owner.accessToken });
    expect(imports.status).toBe(200);
    expect(imports.body.data).toEqual([]);
  });
});

describe("revert and isolation", () => {
  it("reverts a complete import: exactly its transactions go, it is pending again and can be published anew", async () => {
    const res = await create({ raw_file_content: "date,amount,name\n2026-03-09,-7.00,Revert me\n2026-03-09,-8.00,Revert me too", publish: "true" });
    const id = res.body.data.id as string;
    await completed(id);
    expect(await transactionsNamed("Revert me")).toHaveLength(2);
    const reverted = await api.post(`/api/v1/imports/${id}/revert`, {}, { apiKey: user.writeKey });
    expect(reverted.status).toBe(200);
    expect(reverted.body.data).toMatchObject({ status: "pending", result: null });
    expect(await transactionsNamed("Revert me")).toHaveLength(0);
    expect((await api.post(`/api/v1/imports/${id}/revert`, {}, { apiKey: user.writeKey })).status).toBe(409);
    expect((await api.post(`/api/v1/imports/${id}/publish`, {}, { apiKey: user.writeKey })).status).toBe(202);
    await completed(id);
    expect(await transactionsNamed("Revert me")).toHaveLength(2);
  });

  it("deletes an import with what it made (Sure's imports#destroy): 204; 409 while it publishes; 404 for another family's", async () => {
    const res = await create({ raw_file_content: "date,amount,name\n2026-03-11,-9.00,Delete me\n2026-03-11,-6.00,Delete me too", publish: "true" });
    const id = res.body.data.id as string;
    await completed(id);
    expect(await transactionsNamed("Delete me")).toHaveLength(2);
    const stranger = await signUpUser(api, "deleting-stranger");
    expect((await api.delete(`/api/v1/imports/${id}`, { apiKey: stranger.writeKey })).status).toBe(404);
    expect((await api.delete(`/api/v1/imports/${id}`, { apiKey: user.readKey })).status).toBe(403);
    expect((await api.delete(`/api/v1/imports/${id}`, { apiKey: user.writeKey })).status).toBe(204);
    expect(await transactionsNamed("Delete me")).toHaveLength(0);
    expect((await api.get(`/api/v1/imports/${id}`, { apiKey: user.readKey })).status).toBe(404);
    expect(await system.db.finance.importRow.count({ where: { importId: id } })).toBe(0);

    // Being published: not deleted under its publish.
    const pending = (await create({ raw_file_content: "date,amount,name\n2026-03-12,-1.00,Busy" })).body.data.id as string;
    await system.db.finance.import.update({ where: { id: pending }, data: { status: "importing" } });
    const busy = await api.delete(`/api/v1/imports/${pending}`, { apiKey: user.writeKey });
    expect(busy.status).toBe(409);
    expect(busy.body).toMatchObject({ error: "conflict", message: "The import is being published or reverted: delete it once that has ended" });
    await system.db.finance.import.update({ where: { id: pending }, data: { status: "pending" } });
    expect((await api.delete(`/api/v1/imports/${pending}`, { apiKey: user.writeKey })).status).toBe(204);
  });

  it("answers 404 'Import not found' for another family's import", async () => {
    const stranger = await signUpUser(api, "stranger");
    const mine = (await create({ raw_file_content: CSV })).body.data.id as string;
    for (const path of [`/api/v1/imports/${mine}`, `/api/v1/imports/${mine}/rows`]) {
      const res = await api.get(path, { apiKey: stranger.readKey });
      expect(res.status, path).toBe(404);
      expect(res.body).toMatchObject({ error: "not_found", message: "Import not found" });
    }
    expect((await api.post(`/api/v1/imports/${mine}/publish`, {}, { apiKey: stranger.writeKey })).status).toBe(404);
  });
});
