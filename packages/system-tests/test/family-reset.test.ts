// The family reset (Sure's DELETE /api/v1/users/reset and GET /api/v1/users/reset/status) and
// the purge of a deleted family's data, through the gateway into finance, chat and
// notifications (data out). Cases mirror Sure's test/controllers/api/v1/users_controller_test.rb
// where named.
import { randomBytes } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ResetInitiatedSchema, ResetStatusSchema, SURE_RESET_COUNT_KEYS } from "@hearth/contracts";
import { FAMILY_PURGE_QUEUE } from "@hearth/gateway/gateway";
import { testPostgresAdminUrl } from "@hearth/test-kit";
import { DEVICE, TEST_PASSWORD, apiClient, eventually, signUpUser, startSystem, type ApiClient, type TestSystem, type TestUser } from "../src";

let system: TestSystem;
let api: ApiClient;

beforeAll(async () => {
  system = await startSystem({ adminUrl: testPostgresAdminUrl() });
  api = apiClient(system.url);
});
afterAll(async () => system?.stop());

async function post(user: TestUser, path: string, body: unknown): Promise<any> {
  const res = await api.post(path, body, { apiKey: user.writeKey });
  expect(res.status, `${path}: ${JSON.stringify(res.body)}`).toBeLessThan(300);
  return res.body;
}

/** A family with something of every kind the reset removes, in every service. */
async function seedFamily(user: TestUser): Promise<void> {
  const checking = await post(user, "/api/v1/accounts", {
    account: { name: "Checking", account_type: "depository", balance: "1000", opening_balance_date: "2026-01-01" },
  });
  const savings = await post(user, "/api/v1/accounts", {
    account: { name: "Savings", account_type: "depository", balance: "50", opening_balance_date: "2026-01-01" },
  });
  const brokerage = await post(user, "/api/v1/accounts", {
    account: { name: "Brokerage", account_type: "investment", balance: "5000", opening_balance_date: "2026-01-01" },
  });
  const groceries = await post(user, "/api/v1/categories", { category: { name: "Market runs" } });
  await post(user, "/api/v1/categories", { category: { name: "Market fruit", parent_id: groceries.id } });
  const tag = await post(user, "/api/v1/tags", { tag: { name: "Weekly" } });
  const bought = await post(user, "/api/v1/transactions", {
    transaction: {
      account_id: checking.id,
      name: "Market",
      date: "2026-02-03",
      amount: "42.10",
      nature: "expense",
      category_id: groceries.id,
      tag_ids: [tag.id],
    },
  });
  expect(bought.id).toBeTruthy();
  await post(user, "/api/v1/transfers", { transfer: { from_account_id: checking.id, to_account_id: savings.id, amount: "100", date: "2026-02-04" } });
  await post(user, "/api/v1/trades", { trade: { account_id: brokerage.id, type: "buy", date: "2026-02-05", qty: 2, price: 100, ticker: "VTI" } });
  await post(user, "/api/v1/rules", {
    rule: {
      name: "Market",
      conditions: [{ condition_type: "transaction_name", operator: "like", value: "market" }],
      actions: [{ action_type: "set_transaction_category", value: groceries.id }],
    },
  });
  await post(user, "/api/v1/budgets", { budget: { start_date: "2026-02-10" } });
  await post(user, "/api/v1/chats", { title: "Spending", message: "What did we spend?" });
  await post(user, "/api/v1/push_subscriptions", { token: randomBytes(32).toString("hex"), environment: "sandbox", platform: "ios" });
}

async function statusOf(user: TestUser) {
  const res = await api.get("/api/v1/users/reset/status", { apiKey: user.readKey });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return ResetStatusSchema.parse(res.body);
}

/** A member (not admin) of `admin`'s family. */
async function inviteMember(admin: TestUser): Promise<{ accessToken: string }> {
  const email = `member-${randomBytes(4).toString("hex")}@example.com`;
  const invite = await api.post("/api/v1/invitations", { invitation: { email, role: "member" } }, { token: admin.accessToken });
  expect(invite.status).toBe(201);
  const signup = await api.post("/api/v1/auth/signup", { user: { email, password: TEST_PASSWORD }, device: DEVICE, invite_code: invite.body.invite_code });
  expect(signup.status).toBe(201);
  return { accessToken: signup.body.access_token };
}

/**
 * What the databases holding family data keep of `familyId`: rows of every table with a
 * family_id column, by table, and the whole count of each table without one (rows reached only
 * through a parent: entry tags, rule conditions, chat messages...), to compare with a baseline.
 */
async function rowsOf(familyId: string): Promise<{ ofFamily: Record<string, number>; unowned: Record<string, number> }> {
  const ofFamily: Record<string, number> = {};
  const unowned: Record<string, number> = {};
  for (const [name, db] of [
    ["finance", system.db.finance],
    ["chat", system.db.chat],
    ["notifications", system.db.notifications],
  ] as const) {
    const tables = await db.$queryRaw<{ table_name: string; owned: boolean }[]>`
      SELECT t.table_name, EXISTS (SELECT 1 FROM information_schema.columns c
                                    WHERE c.table_schema = 'public' AND c.table_name = t.table_name AND c.column_name = 'family_id') AS owned
        FROM information_schema.tables t
       WHERE t.table_schema = 'public' AND t.table_type = 'BASE TABLE' AND t.table_name <> '_prisma_migrations'`;
    for (const { table_name, owned } of tables) {
      const [row] = owned
        ? await db.$queryRawUnsafe<{ n: bigint }[]>(`SELECT count(*) AS n FROM "${table_name}" WHERE family_id = $1::uuid`, familyId)
        : await db.$queryRawUnsafe<{ n: bigint }[]>(`SELECT count(*) AS n FROM "${table_name}"`);
      (owned ? ofFamily : unowned)[`${name}.${table_name}`] = Number(row?.n ?? 0);
    }
  }
  return { ofFamily, unowned };
}

/** No sync of any family is open (balances, holdings and their follow-ups are written). */
async function syncsSettled(): Promise<void> {
  await eventually(async () => expect(await system.db.finance.sync.count({ where: { status: { in: ["pending", "syncing"] } } })).toBe(0));
}

describe("DELETE /api/v1/users/reset", () => {
  it("needs the admin role and write scope ('reset requires admin', 'reset requires read_write scope')", async () => {
    const admin = await signUpUser(api, "reset-access", { ai: true });
    const member = await inviteMember(admin);
    const asMember = await api.delete("/api/v1/users/reset", { token: member.accessToken });
    expect(asMember.status).toBe(403);
    expect(asMember.body.error).toBe("forbidden");
    expect((await api.get("/api/v1/users/reset/status", { token: member.accessToken })).status).toBe(403);
    const readOnly = await api.delete("/api/v1/users/reset", { apiKey: admin.readKey });
    expect(readOnly.status).toBe(403);
    expect(readOnly.body.error).toBe("insufficient_scope");
    expect((await api.delete("/api/v1/users/reset")).status).toBe(401);
    expect((await api.get("/api/v1/users/reset/status")).status).toBe(401);
  });

  it("queues the reset at once and removes the family's financial data in every service, nobody else's ('reset enqueues the job')", async () => {
    const user = await signUpUser(api, "resetter", { ai: true });
    const neighbour = await signUpUser(api, "neighbour", { ai: true });
    await seedFamily(user);
    await seedFamily(neighbour);
    await api.patch("/api/v1/family_settings", { family_settings: { currency: "EUR" } }, { apiKey: user.writeKey });
    await syncsSettled();
    const before = await statusOf(user);
    expect(before).toMatchObject({ status: "data_remaining", reset_complete: false });
    for (const key of SURE_RESET_COUNT_KEYS) expect(before.counts[key], key).toBeGreaterThanOrEqual(0);
    expect(before.counts).toMatchObject({ accounts: 3, transactions: 3, transfers: 1, trades: 1, rules: 1, tags: 1, chats: 1, push_subscriptions: 1 });
    expect(before.counts["categories"]).toBeGreaterThanOrEqual(2);
    const neighbourBefore = await statusOf(neighbour);

    const res = await api.delete("/api/v1/users/reset", { apiKey: user.writeKey });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    const queued = ResetInitiatedSchema.parse(res.body);
    expect(queued).toMatchObject({ message: "Account reset has been initiated", status: "queued", status_url: "/api/v1/users/reset/status" });

    const after = await eventually(async () => {
      const status = await statusOf(user);
      expect(status.status).toBe("complete");
      return status;
    });
    expect(after.family_id).toBe(queued.family_id);
    expect(after.reset_complete).toBe(true);
    expect(Object.values(after.counts).every((count) => count === 0)).toBe(true);
    expect(Object.keys(after.counts)).toEqual(expect.arrayContaining([...SURE_RESET_COUNT_KEYS]));
    expect(await statusOf(neighbour)).toEqual(neighbourBefore);

    // The family, its members and settings stay: the user goes on with an empty ledger.
    const settings = await api.get("/api/v1/family_settings", { apiKey: user.readKey });
    expect(settings.body).toMatchObject({ currency: "EUR" });
    expect((await api.get("/api/v1/transactions", { apiKey: user.readKey })).body.transactions).toEqual([]);
    expect((await api.get("/api/v1/accounts", { apiKey: user.readKey })).body.accounts).toEqual([]);
    await post(user, "/api/v1/accounts", { account: { name: "Fresh start", account_type: "depository", balance: "1" } });
    expect((await statusOf(user)).status).toBe("data_remaining");

    const purge = await system.db.gateway.familyPurge.findUniqueOrThrow({ where: { id: queued.job_id } });
    expect(purge).toMatchObject({ kind: "reset", familyId: queued.family_id, pendingServices: [], lastError: null });
    expect(purge.completedAt).not.toBeNull();
  });

  it("resumes where it stopped after a service outage (never half-done for good)", async () => {
    const user = await signUpUser(api, "interrupted", { ai: true });
    await seedFamily(user);
    // Finance is down when the reset is asked for: the step fails, the purge waits to be retried.
    await system.services.finance.stop();
    let jobId: string;
    try {
      const res = await api.delete("/api/v1/users/reset", { apiKey: user.writeKey });
      expect(res.status).toBe(200);
      jobId = ResetInitiatedSchema.parse(res.body).job_id;
      await eventually(async () => {
        const purge = await system.db.gateway.familyPurge.findUniqueOrThrow({ where: { id: jobId } });
        expect(purge.lastError).toMatch(/finance/);
        expect(purge.completedAt).toBeNull();
      });
      // Asked again meanwhile, the reset answers the one under way.
      const again = await api.delete("/api/v1/users/reset", { apiKey: user.writeKey });
      expect(again.body.job_id).toBe(jobId);
    } finally {
      await system.services.finance.start();
    }
    // Its job waits out its backoff; made due now, the next run resumes it.
    await system.db.gateway.job.updateMany({ where: { queue: FAMILY_PURGE_QUEUE, subjectId: jobId, status: "queued" }, data: { runAfter: new Date() } });
    await system.gateway.jobs.drain(FAMILY_PURGE_QUEUE);
    await eventually(async () => expect((await statusOf(user)).status).toBe("complete"));
    const purge = await system.db.gateway.familyPurge.findUniqueOrThrow({ where: { id: jobId } });
    expect(purge.completedAt).not.toBeNull();
    expect(purge.attempts).toBeGreaterThanOrEqual(2);
  });

  it("is not complete while the reset is still open, even with every count at zero (a service's purge step may still be running)", async () => {
    const user = await signUpUser(api, "reset-open");
    const { status, family_id: familyId } = await statusOf(user);
    expect(status).toBe("complete");
    // A reset being worked (by a job of another gateway), which has not finished yet.
    const purge = await system.db.gateway.familyPurge.create({ data: { familyId, kind: "reset", pendingServices: ["chat"] } });
    expect(await statusOf(user)).toMatchObject({ status: "data_remaining", reset_complete: false });
    await system.db.gateway.familyPurge.update({ where: { id: purge.id }, data: { pendingServices: [], completedAt: new Date() } });
    expect(await statusOf(user)).toMatchObject({ status: "complete", reset_complete: true });
  });
});

describe("deleting a family's last member", () => {
  it("purges everything the family had in every service: no row of it remains anywhere", async () => {
    const keeper = await signUpUser(api, "keeper", { ai: true });
    await seedFamily(keeper);
    const lonely = await signUpUser(api, "lonely", { ai: true });
    const { familyId } = await system.db.gateway.membership.findUniqueOrThrow({ where: { userId: lonely.id } });
    await syncsSettled();
    const baseline = await rowsOf(familyId);

    await seedFamily(lonely);
    await api.get("/api/v1/family_settings", { apiKey: lonely.readKey });
    await syncsSettled();
    const seeded = await rowsOf(familyId);
    for (const table of [
      "finance.entries",
      "finance.accounts",
      "finance.balances",
      "finance.holding_spans",
      "finance.family_settings",
      "chat.chats",
      "notifications.push_subscriptions",
    ]) {
      expect(seeded.ofFamily[table], table).toBeGreaterThan(0);
    }
    expect(seeded.unowned["finance.entry_tags"]).toBeGreaterThan(baseline.unowned["finance.entry_tags"] ?? 0);

    const res = await api.delete("/api/v1/users/me", { apiKey: lonely.writeKey });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ message: "Account has been deleted" });

    await eventually(async () => {
      const purge = await system.db.gateway.familyPurge.findFirstOrThrow({ where: { familyId, kind: "family_deleted" } });
      expect(purge.completedAt).not.toBeNull();
    });
    const after = await rowsOf(familyId);
    expect(Object.entries(after.ofFamily).filter(([, count]) => count > 0)).toEqual([]);
    expect(after.unowned).toEqual(baseline.unowned);
    expect(await system.db.gateway.family.count({ where: { id: familyId } })).toBe(0);
    expect(await system.db.gateway.membership.count({ where: { familyId } })).toBe(0);
  });
});
