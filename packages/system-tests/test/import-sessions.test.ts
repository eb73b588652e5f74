// Import sessions through the gateway as a Sure client uses them (data in): a SureImport sent in
// ordered chunks, resumable after a dropped connection, published as one import. Cases mirror
// Sure's test/controllers/api/v1/import_sessions_controller_test.rb where named.
import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ImportSessionResponseSchema } from "@hearth/contracts";
import { testPostgresAdminUrl } from "@hearth/test-kit";
import { accountLine, apiClient, eventually, signUpUser, startSystem, transactionLine, type ApiClient, type TestSystem, type TestUser } from "../src";

let system: TestSystem;
let api: ApiClient;
let user: TestUser;

beforeAll(async () => {
  system = await startSystem({ adminUrl: testPostgresAdminUrl() });
  api = apiClient(system.url);
  user = await signUpUser(api, "mover");
});
afterAll(async () => system?.stop());

const sessionOf = (res: { body: unknown }) => ImportSessionResponseSchema.parse(res.body).data;
const chunk = (id: string, body: Record<string, unknown>, key = user.writeKey) => api.post(`/api/v1/import_sessions/${id}/chunks`, body, { apiKey: key });

describe("import sessions", () => {
  it("are created once per client_session_id; expected_chunks cannot change ('create is idempotent by client_session_id')", async () => {
    const key = randomUUID();
    const first = await api.post("/api/v1/import_sessions", { type: "SureImport", client_session_id: key, expected_chunks: 2 }, { apiKey: user.writeKey });
    expect(first.status, JSON.stringify(first.body)).toBe(201);
    const session = sessionOf(first);
    expect(session).toMatchObject({ type: "SureImport", status: "pending", client_session_id: key, expected_chunks: 2, chunks_count: 0, chunks: [] });
    const again = await api.post("/api/v1/import_sessions", { client_session_id: key, expected_chunks: 2 }, { apiKey: user.writeKey });
    expect(sessionOf(again).id).toBe(session.id);
    const changed = await api.post("/api/v1/import_sessions", { client_session_id: key, expected_chunks: 3 }, { apiKey: user.writeKey });
    expect(changed.status).toBe(409);
    expect(changed.body.error).toBe("import_session_conflict");
    expect((await api.post("/api/v1/import_sessions", { type: "TransactionImport" }, { apiKey: user.writeKey })).status).toBe(422);
    expect((await api.post("/api/v1/import_sessions", {}, { apiKey: user.readKey })).status).toBe(403);
  });

  it("take chunks in any order, resent chunks as no-ops, other content for a chunk 409, and publish only when whole", async () => {
    const session = sessionOf(await api.post("/api/v1/import_sessions", { expected_chunks: 2 }, { apiKey: user.writeKey }));
    const account = randomUUID();
    const first = [accountLine(account, "Moved checking")].join("\n");
    const second = [transactionLine(account, "Moved groceries"), transactionLine(account, "Moved rent")].join("\n");

    const added = await chunk(session.id, { sequence: 2, client_chunk_id: "part-2", raw_file_content: second });
    expect(added.status, JSON.stringify(added.body)).toBe(201);
    expect(sessionOf(added).chunks).toMatchObject([{ sequence: 2, client_chunk_id: "part-2", rows_count: 2, status: "pending", summary: {} }]);

    const early = await api.post(`/api/v1/import_sessions/${session.id}/publish`, {}, { apiKey: user.writeKey });
    expect(early.status).toBe(409);
    expect(early.body.message).toContain("missing sequences: 1");

    // A dropped connection: the client sends chunk 1 twice; the second is a no-op.
    for (let attempt = 0; attempt < 2; attempt++)
      expect((await chunk(session.id, { sequence: 1, client_chunk_id: "part-1", raw_file_content: first })).status).toBe(201);
    const other = await chunk(session.id, { sequence: 1, raw_file_content: accountLine(randomUUID(), "Someone else") });
    expect(other.status).toBe(409);
    expect(other.body).toMatchObject({ error: "import_session_conflict", message: "chunk already exists with different content" });
    expect((await chunk(session.id, { sequence: 3, raw_file_content: first })).body).toMatchObject({
      error: "import_session_conflict",
      message: "sequence exceeds expected_chunks",
    });
    expect((await chunk(session.id, { sequence: 2, client_chunk_id: "part-1", raw_file_content: second })).status).toBe(409);

    const shown = sessionOf(await api.get(`/api/v1/import_sessions/${session.id}`, { apiKey: user.readKey }));
    expect(shown.chunks.map((c) => c.sequence)).toEqual([1, 2]);
    expect(shown.summary).toEqual({});

    const published = await api.post(`/api/v1/import_sessions/${session.id}/publish`, {}, { apiKey: user.writeKey });
    expect(published.status, JSON.stringify(published.body)).toBe(202);
    const done = await eventually(async () => {
      const current = sessionOf(await api.get(`/api/v1/import_sessions/${session.id}`, { apiKey: user.readKey }));
      expect(current.status, JSON.stringify(current.error)).toBe("complete");
      return current;
    });
    expect(done.progress).toEqual({ rows_done: 3, rows_total: 3 });
    expect(done.summary).toMatchObject({ accounts: { created: 1 }, transactions: { created: 2 } });
    const accounts = (await api.get("/api/v1/accounts", { apiKey: user.readKey })).body.accounts as { name: string }[];
    expect(accounts.map((a) => a.name)).toContain("Moved checking");
    expect((await chunk(session.id, { sequence: 1, raw_file_content: first })).body).toMatchObject({ error: "import_session_conflict" });
  });

  it("count records of made-up types as unsupported, whatever their name (a type named constructor was a 500)", async () => {
    const session = sessionOf(await api.post("/api/v1/import_sessions", {}, { apiKey: user.writeKey }));
    const lines = ["constructor", "toString", "__proto__", "Whatever"].map((type) => JSON.stringify({ type, data: {} }));
    const res = await chunk(session.id, { sequence: 1, raw_file_content: [accountLine(randomUUID(), "Real"), ...lines].join("\n") });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    const shown = sessionOf(await api.get(`/api/v1/import_sessions/${session.id}`, { apiKey: user.readKey }));
    expect(shown.summary).toEqual({});
    expect(shown.chunks[0]?.rows_count).toBe(5);
    const preflight = await api.post(
      "/api/v1/imports/preflight",
      { type: "SureImport", raw_file_content: [accountLine(randomUUID(), "Real"), JSON.stringify({ type: "toString", data: {} })].join("\n") },
      { apiKey: user.readKey },
    );
    expect(preflight.status, JSON.stringify(preflight.body)).toBe(200);
    expect(preflight.body.data.valid).toBe(false);
  });

  it("take a chunk as a multipart file too ('create_chunk accepts file upload')", async () => {
    const session = sessionOf(await api.post("/api/v1/import_sessions", {}, { apiKey: user.writeKey }));
    const form = new FormData();
    form.set("sequence", "1");
    form.set("file", new Blob([accountLine(randomUUID(), "Uploaded")], { type: "application/x-ndjson" }), "part-1.ndjson");
    const res = await fetch(`${system.url}/api/v1/import_sessions/${session.id}/chunks`, {
      method: "POST",
      headers: { "x-api-key": user.writeKey },
      body: form,
    });
    expect(res.status).toBe(201);
    expect(sessionOf({ body: await res.json() }).chunks).toMatchObject([{ sequence: 1, rows_count: 1 }]);
  });

  it("refuse content Sure refuses: none, not NDJSON, too large ('create_chunk rejects invalid content')", async () => {
    const session = sessionOf(await api.post("/api/v1/import_sessions", {}, { apiKey: user.writeKey }));
    expect((await chunk(session.id, { sequence: 1 })).body).toMatchObject({ error: "missing_content" });
    expect((await chunk(session.id, { sequence: 1, raw_file_content: "date,amount\n2026-01-01,1" })).body).toMatchObject({
      error: "invalid_ndjson",
      message: "Invalid Sure NDJSON content.",
    });
    const huge = `${accountLine(randomUUID(), "Big")}\n${" ".repeat(10 * 1024 * 1024)}`;
    expect((await chunk(session.id, { sequence: 1, raw_file_content: huge })).body).toMatchObject({ error: "content_too_large" });
    expect((await chunk(session.id, { sequence: 0, raw_file_content: accountLine(randomUUID(), "Zero") })).status).toBe(422);
    expect((await api.post(`/api/v1/import_sessions/${session.id}/publish`, {}, { apiKey: user.writeKey })).status).toBe(409);
  });

  it("hold at most 64 MB in all: the chunk past it is refused (content_too_large), the session keeps the rest", async () => {
    const session = sessionOf(await api.post("/api/v1/import_sessions", {}, { apiKey: user.writeKey }));
    // Blank lines (a million of them per chunk) pad each chunk to 9.5 MB: seven fit in 64 MB, the eighth does not.
    const padding = "\n".repeat(1_000_000) + " ".repeat(8_500_000);
    for (let sequence = 1; sequence <= 7; sequence++) {
      expect((await chunk(session.id, { sequence, raw_file_content: `${accountLine(randomUUID(), `Big ${sequence}`)}${padding}` })).status).toBe(201);
    }
    const over = await chunk(session.id, { sequence: 8, raw_file_content: `${accountLine(randomUUID(), "Too much")}${padding}` });
    expect(over.status).toBe(422);
    expect(over.body).toMatchObject({ error: "content_too_large", message: "Import session is too large. Maximum size is 64MB in all." });
    const held = sessionOf(await api.get(`/api/v1/import_sessions/${session.id}`, { apiKey: user.readKey }));
    expect(held.chunks_count).toBe(7);
    expect(held.chunks[0]?.rows_count).toBe(1);
  });

  it("answer 404 'Import session not found' to another family", async () => {
    const session = sessionOf(await api.post("/api/v1/import_sessions", {}, { apiKey: user.writeKey }));
    const stranger = await signUpUser(api, "stranger");
    const res = await api.get(`/api/v1/import_sessions/${session.id}`, { apiKey: stranger.readKey });
    expect(res.status).toBe(404);
    expect(res.body).toMatchObject({ error: "not_found", message: "Import session not found" });
    expect((await chunk(session.id, { sequence: 1, raw_file_content: accountLine(randomUUID(), "Theirs") }, stranger.writeKey)).status).toBe(404);
  });
});
