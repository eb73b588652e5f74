// Data in and out under parallel requests: the same reset, publish, revert, session
// create, chunk, session publish or export asked for several times at once, through the gateway
// on real PostgreSQL. Each race checks that exactly one request did the work, the others got the
// documented answer (never a 500), and that nothing is half-written or written twice.
import { createHash, randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ImportResponseSchema, ImportSessionResponseSchema, ResetInitiatedSchema, ResetStatusSchema } from "@hearth/contracts";
import { testPostgresAdminUrl } from "@hearth/test-kit";
import {
  accountLine,
  apiClient,
  eventually,
  signUpUser,
  startSystem,
  transactionLine,
  type ApiClient,
  type ApiResponse,
  type TestSystem,
  type TestUser,
} from "../src";

/** Requests fired at once in each race. */
const N = 8;

let system: TestSystem;
let api: ApiClient;
/** A family of its own whose tiny imports show the (sequential, first-come) import worker has finished all queued before. */
let sentinel: Family;

interface Family {
  user: TestUser;
  familyId: string;
  accountId: string;
}

beforeAll(async () => {
  system = await startSystem({ adminUrl: testPostgresAdminUrl() });
  api = apiClient(system.url);
  sentinel = await newFamily("sentinel");
});
afterAll(async () => system?.stop());

/** A new user (admin of a new family) with one checking account. */
async function newFamily(label: string): Promise<Family> {
  const user = await signUpUser(api, label);
  const { familyId } = await system.db.gateway.membership.findUniqueOrThrow({ where: { userId: user.id } });
  const account = await api.post(
    "/api/v1/accounts",
    { account: { name: "Checking", account_type: "depository", balance: "1000", opening_balance_date: "2026-01-01" } },
    { apiKey: user.writeKey },
  );
  expect(account.status, JSON.stringify(account.body)).toBe(201);
  return { user, familyId, accountId: account.body.id };
}

/** `N` copies of a request, fired together. */
const race = <T>(request: (i: number) => Promise<ApiResponse<T>>) => Promise.all(Array.from({ length: N }, (_, i) => request(i)));

/** How many answers had each status, e.g. { 202: 1, 422: 7 }. */
const tally = (answers: ApiResponse[]) => answers.reduce<Record<number, number>>((counts, a) => ({ ...counts, [a.status]: (counts[a.status] ?? 0) + 1 }), {});

/** A CSV TransactionImport uploaded into the family's account (pending). */
async function upload(family: Family, csv: string, publish = false): Promise<string> {
  const res = await api.post(
    "/api/v1/imports",
    { type: "TransactionImport", account_id: family.accountId, date_format: "%Y-%m-%d", raw_file_content: csv, ...(publish ? { publish: "true" } : {}) },
    { apiKey: family.user.writeKey },
  );
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return ImportResponseSchema.parse(res.body).data.id;
}

const importOf = async (family: Family, id: string) =>
  ImportResponseSchema.parse((await api.get(`/api/v1/imports/${id}`, { apiKey: family.user.readKey })).body).data;

const completed = (family: Family, id: string) => eventually(async () => expect((await importOf(family, id)).status).toBe("complete"));

/** Every import queued so far is published (or failed): the worker takes them one at a time, oldest first. */
async function importsSettled(): Promise<void> {
  await completed(sentinel, await upload(sentinel, `date,amount,name\n2026-05-01,-1.00,Sentinel ${randomUUID()}`, true));
}

const transactionsOf = (family: Family) => system.db.finance.entry.count({ where: { familyId: family.familyId, kind: "transaction" } });

async function resetStatus(family: Family) {
  const res = await api.get("/api/v1/users/reset/status", { apiKey: family.user.readKey });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return ResetStatusSchema.parse(res.body);
}

/** Asserts every answer of a parallel reset is the documented 200 "queued", all naming one purge; answers its id. */
function onePurgeQueued(answers: ApiResponse[], family: Family): string {
  expect(tally(answers)).toEqual({ 200: N });
  const queued = answers.map((a) => ResetInitiatedSchema.parse(a.body));
  expect(new Set(queued.map((q) => q.family_id))).toEqual(new Set([family.familyId]));
  const jobs = new Set(queued.map((q) => q.job_id));
  expect(jobs.size).toBe(1);
  return queued[0]!.job_id;
}

const csvOf = (rows: number, name: (i: number) => string) =>
  ["date,amount,name", ...Array.from({ length: rows }, (_, i) => `2026-04-01,-${(1 + (i % 50)).toFixed(2)},${name(i)}`)].join("\n");

describe("parallel imports", () => {
  it("publish the same pending import once: one 202, the others 422 not_publishable, its rows written once", async () => {
    const family = await newFamily("publish-race");
    const id = await upload(
      family,
      csvOf(300, (i) => `Published ${i}`),
    );
    const answers = await race(() => api.post(`/api/v1/imports/${id}/publish`, {}, { apiKey: family.user.writeKey }));
    expect(tally(answers)).toEqual({ 202: 1, 422: N - 1 });
    for (const loser of answers.filter((a) => a.status === 422)) expect(loser.body).toMatchObject({ error: "not_publishable", import_id: id });
    await completed(family, id);
    await importsSettled();
    expect((await importOf(family, id)).result).toEqual({ transactions: 300, skipped_duplicates: 0, claimed_duplicates: 0 });
    expect(await transactionsOf(family)).toBe(300);
    expect(await system.db.finance.entry.count({ where: { importId: id } })).toBe(300);
  });

  it("revert a complete import once: one 200, the others 409; exactly its rows go, the rest of the account stays", async () => {
    const family = await newFamily("revert-race");
    const kept = await api.post(
      "/api/v1/transactions",
      { transaction: { account_id: family.accountId, name: "Not imported", date: "2026-04-01", amount: "3.00", nature: "expense" } },
      { apiKey: family.user.writeKey },
    );
    expect(kept.status).toBe(201);
    const id = await upload(
      family,
      csvOf(50, (i) => `Reverted ${i}`),
      true,
    );
    await completed(family, id);
    expect(await transactionsOf(family)).toBe(51);

    const answers = await race(() => api.post(`/api/v1/imports/${id}/revert`, {}, { apiKey: family.user.writeKey }));
    expect(tally(answers)).toEqual({ 200: 1, 409: N - 1 });
    for (const loser of answers.filter((a) => a.status === 409)) expect(loser.body).toMatchObject({ error: "conflict" });
    expect(await importOf(family, id)).toMatchObject({ status: "pending", result: null });
    expect(await system.db.finance.entry.count({ where: { importId: id } })).toBe(0);
    const left = await system.db.finance.entry.findMany({ where: { familyId: family.familyId, kind: "transaction" }, select: { id: true } });
    expect(left.map((e) => e.id)).toEqual([kept.body.id]);
  });

  it("publishes racing reverts alternate cleanly: the import ends complete with all its rows or pending with none", async () => {
    const family = await newFamily("publish-revert");
    const id = await upload(
      family,
      csvOf(200, (i) => `Flip ${i}`),
      true,
    );
    await completed(family, id);
    // Reverts and publishes interleaved: each succeeds only from the state the other leaves (complete / pending).
    const answers = await race((i) => api.post(`/api/v1/imports/${id}/${i % 2 === 0 ? "revert" : "publish"}`, {}, { apiKey: family.user.writeKey }));
    const reverts = answers.filter((_, i) => i % 2 === 0);
    const publishes = answers.filter((_, i) => i % 2 === 1);
    for (const a of reverts) expect([200, 409], JSON.stringify(a.body)).toContain(a.status);
    for (const a of publishes) expect([202, 422], JSON.stringify(a.body)).toContain(a.status);
    const reverted = reverts.filter((a) => a.status === 200).length;
    const published = publishes.filter((a) => a.status === 202).length;
    // Successes alternate starting with a revert (the import starts complete).
    expect(reverted).toBeGreaterThanOrEqual(1);
    expect(reverted - published).toBeGreaterThanOrEqual(0);
    expect(reverted - published).toBeLessThanOrEqual(1);
    await importsSettled();
    const final = await importOf(family, id);
    if (reverted === published) {
      expect(final.status).toBe("complete");
      expect(await transactionsOf(family)).toBe(200);
    } else {
      expect(final.status).toBe("pending");
      expect(await transactionsOf(family)).toBe(0);
    }
    expect(await system.db.finance.entry.count({ where: { familyId: family.familyId, importId: { not: id }, kind: "transaction" } })).toBe(0);
  });
});

const sessionOf = (res: { body: unknown }) => ImportSessionResponseSchema.parse(res.body).data;

async function newSession(family: Family, body: Record<string, unknown> = {}) {
  const res = await api.post("/api/v1/import_sessions", body, { apiKey: family.user.writeKey });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return sessionOf(res);
}

const addChunk = (family: Family, id: string, body: Record<string, unknown>) =>
  api.post(`/api/v1/import_sessions/${id}/chunks`, body, { apiKey: family.user.writeKey });

describe("parallel import sessions", () => {
  it("created with one client_session_id are one session: every answer names it", async () => {
    const family = await newFamily("session-create");
    const key = randomUUID();
    const answers = await race(() => api.post("/api/v1/import_sessions", { client_session_id: key, expected_chunks: 2 }, { apiKey: family.user.writeKey }));
    expect(tally(answers)).toEqual({ 201: N });
    const ids = new Set(answers.map((a) => sessionOf(a).id));
    expect(ids.size).toBe(1);
    expect(await system.db.finance.importSession.count({ where: { familyId: family.familyId } })).toBe(1);
    expect(sessionOf(answers[0]!)).toMatchObject({ client_session_id: key, expected_chunks: 2, chunks_count: 0 });
  });

  it("keep one chunk when the same chunk is sent at once several times: all 201", async () => {
    const family = await newFamily("chunk-same");
    const session = await newSession(family);
    const content = accountLine(randomUUID(), "Sent often");
    const answers = await race(() => addChunk(family, session.id, { sequence: 1, client_chunk_id: "part-1", raw_file_content: content }));
    expect(tally(answers)).toEqual({ 201: N });
    const stored = await system.db.finance.importSessionChunk.findMany({ where: { sessionId: session.id } });
    expect(stored).toHaveLength(1);
    expect(stored[0]).toMatchObject({ sequence: 1, clientChunkId: "part-1", content });
  });

  it("keep exactly one of different chunks sent at once for one sequence: one 201, the others 409, the stored one the winner's", async () => {
    const family = await newFamily("chunk-different");
    const session = await newSession(family);
    const contents = Array.from({ length: N }, (_, i) => accountLine(randomUUID(), `Contender ${i}`));
    const answers = await race((i) => addChunk(family, session.id, { sequence: 1, client_chunk_id: `part-${i}`, raw_file_content: contents[i] }));
    expect(tally(answers)).toEqual({ 201: 1, 409: N - 1 });
    for (const loser of answers.filter((a) => a.status === 409)) expect(loser.body).toMatchObject({ error: "import_session_conflict" });
    const winner = answers.findIndex((a) => a.status === 201);
    expect(sessionOf(answers[winner]!).chunks).toMatchObject([{ sequence: 1, client_chunk_id: `part-${winner}` }]);
    const stored = await system.db.finance.importSessionChunk.findMany({ where: { sessionId: session.id } });
    expect(stored).toHaveLength(1);
    expect(stored[0]).toMatchObject({ clientChunkId: `part-${winner}`, content: contents[winner] });
    expect(stored[0]?.checksum).toBe(createHash("sha256").update(contents[winner]!).digest("hex"));
  });

  // Each publish that waited on the session's lock once read the session as unpublished and
  // queued an import of its own: N imports, N copies of the account and its rows (fixed in lockSession).
  it("published at once several times import their records once: every answer 202, one import", async () => {
    const family = await newFamily("session-publish");
    const session = await newSession(family, { expected_chunks: 1 });
    const account = randomUUID();
    const lines = [accountLine(account, "Raced checking"), ...["Rent", "Groceries", "Power"].map((name) => transactionLine(account, `Raced ${name}`))];
    expect((await addChunk(family, session.id, { sequence: 1, raw_file_content: lines.join("\n") })).status).toBe(201);

    const answers = await race(() => api.post(`/api/v1/import_sessions/${session.id}/publish`, {}, { apiKey: family.user.writeKey }));
    expect(tally(answers)).toEqual({ 202: N });
    // Checked first, straight after the requests: the failure is the duplicate queueing, whatever the publisher does.
    expect(await system.db.finance.import.count({ where: { familyId: family.familyId, type: "SureImport" } })).toBe(1);
    await eventually(async () => {
      const current = sessionOf(await api.get(`/api/v1/import_sessions/${session.id}`, { apiKey: family.user.readKey }));
      expect(current.status, JSON.stringify(current.error)).toBe("complete");
    });
    await importsSettled();
    expect(await system.db.finance.account.count({ where: { familyId: family.familyId, name: "Raced checking" } })).toBe(1);
    expect(await transactionsOf(family)).toBe(3);
  });
});

describe("parallel family exports", () => {
  it("are each answered 202 with the export waiting, one per build: every one ends completed with a file", async () => {
    const family = await newFamily("export-race");
    const answers = await race(() => api.post("/api/v1/family_exports", undefined, { apiKey: family.user.writeKey }));
    expect(tally(answers)).toEqual({ 202: N });
    // A request while the family's export waits to start is answered with that export (it would
    // read the same rows): at most one new export per build the worker started meanwhile.
    const ids = [...new Set(answers.map((a) => a.body.data.id as string))];
    expect(ids.length).toBeLessThan(N);
    await eventually(
      async () => {
        const rows = await system.db.finance.familyExport.findMany({ where: { familyId: family.familyId } });
        expect(rows.map((r) => r.id).sort()).toEqual([...ids].sort());
        expect(rows.map((r) => r.status)).toEqual(Array(ids.length).fill("completed"));
      },
      { timeoutMs: 40_000 },
    );
    for (const id of ids) {
      const shown = (await api.get(`/api/v1/family_exports/${id}`, { apiKey: family.user.readKey })).body.data;
      expect(shown).toMatchObject({ status: "completed", downloadable: true, file: { attached: true } });
      expect(shown.file.byte_size).toBeGreaterThan(0);
    }
  });
});

describe("parallel family resets", () => {
  it("queue one purge: every answer 200 naming it, the purge runs once, the family ends empty", async () => {
    const family = await newFamily("reset-race");
    for (const name of ["Bakery", "Cinema"]) {
      await api.post(
        "/api/v1/transactions",
        { transaction: { account_id: family.accountId, name, date: "2026-04-02", amount: "9.00", nature: "expense" } },
        { apiKey: family.user.writeKey },
      );
    }
    // A row lock on the family's accounts holds finance's purge step while the requests race, so
    // the first purge is still open when the last request looks: a second reset may not start.
    const answers = await system.db.finance.$transaction(
      async (tx) => {
        await tx.$queryRaw`SELECT id FROM accounts WHERE family_id = ${family.familyId}::uuid FOR UPDATE`;
        return race(() => api.delete("/api/v1/users/reset", { apiKey: family.user.writeKey }));
      },
      { timeout: 30_000 },
    );
    const job = onePurgeQueued(answers, family);
    // The status reads complete once finance is empty; the purge itself ends after chat and notifications too.
    await eventually(async () => expect((await system.db.gateway.familyPurge.findUniqueOrThrow({ where: { id: job } })).completedAt).not.toBeNull());
    const purges = await system.db.gateway.familyPurge.findMany({ where: { familyId: family.familyId } });
    expect(purges).toHaveLength(1);
    expect(purges[0]).toMatchObject({ id: job, kind: "reset", pendingServices: [], lastError: null });
    const after = await resetStatus(family);
    expect(after.status).toBe("complete");
    expect(Object.values(after.counts).every((count) => count === 0)).toBe(true);
  });

  it("while an import is publishing leave nothing of it: the publish rolls back whole, the family ends empty", async () => {
    const family = await newFamily("reset-publish");
    // The row named SLOW sleeps on insert: the publish is held mid-way, its first 1,000 rows written but not committed.
    await system.db.finance.$executeRawUnsafe(`
      CREATE OR REPLACE FUNCTION race_slow_row() RETURNS trigger AS $$
      BEGIN IF NEW.name = 'SLOW' THEN PERFORM pg_sleep(2); END IF; RETURN NEW; END $$ LANGUAGE plpgsql`);
    await system.db.finance.$executeRawUnsafe(`CREATE TRIGGER race_slow_row BEFORE INSERT ON entries FOR EACH ROW EXECUTE FUNCTION race_slow_row()`);
    let id: string;
    try {
      id = await upload(
        family,
        csvOf(2000, (i) => (i === 1499 ? "SLOW" : `Half ${i}`)),
      );
      expect((await api.post(`/api/v1/imports/${id}/publish`, {}, { apiKey: family.user.writeKey })).status).toBe(202);
      await eventually(async () => expect((await importOf(family, id)).progress.rows_done).toBeGreaterThanOrEqual(1000), { intervalMs: 20 });

      onePurgeQueued(await race(() => api.delete("/api/v1/users/reset", { apiKey: family.user.writeKey })), family);
      await eventually(async () => expect((await resetStatus(family)).status).toBe("complete"), { timeoutMs: 30_000 });
    } finally {
      await system.db.finance.$executeRawUnsafe(`DROP TRIGGER IF EXISTS race_slow_row ON entries`);
    }
    // Once the worker has moved on, nothing of the import came back: no entry, account, category or import.
    await importsSettled();
    expect((await api.get(`/api/v1/imports/${id}`, { apiKey: family.user.readKey })).status).toBe(404);
    expect(await system.db.finance.entry.count({ where: { familyId: family.familyId } })).toBe(0);
    expect(await system.db.finance.entry.count({ where: { importId: id } })).toBe(0);
    expect(await system.db.finance.account.count({ where: { familyId: family.familyId } })).toBe(0);
    const after = await resetStatus(family);
    expect(after.status).toBe("complete");
    expect(Object.values(after.counts).every((count) => count === 0)).toBe(true);
  });
});
