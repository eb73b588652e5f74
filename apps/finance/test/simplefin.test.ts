import { randomBytes } from "node:crypto";
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { Writable } from "node:stream";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  PROVIDER_CONNECTION_LIMIT,
  ProviderConnectionCollectionSchema,
  ProviderConnectionResponseSchema,
  type Actor,
  type ProviderConnection,
} from "@hearth/contracts";
import { createLogger } from "@hearth/service-kit";
import { startServiceUnderTest } from "@hearth/test-kit";
import { createFinanceService } from "../src/app";
import { createProviderConnectionsModule, type ProviderConnectionOptions } from "../src/provider-connections/provider-connections-module";
import { PROVIDER_SYNC_QUEUE } from "../src/provider-connections/provider-sync-queries";
import { centsOfAmount, readBridgeAnswer } from "../src/provider-connections/simplefin-payload";
import { endJobConnection, eventually, expectAppError, financeAs, financeUnderTest, newActor, settled, type RunningFinance } from "./support";

// SimpleFIN Bridge connections against a bridge of the test's own on loopback, speaking the
// protocol's documented answers (https://www.simplefin.org/protocol.html): a setup token is the
// base64 of a claim URL, whose POST answers the access URL (basic credentials in it) once; GET
// {access}/accounts answers {errors, accounts: [{org, id, name, currency, balance, ...,
// transactions: [{id, posted, amount, description, payee, memo, pending}]}]}.

const USER = "hearth-test-user";
const PASSWORD = `pw-${randomBytes(12).toString("hex")}`;
const DAY = 86_400;
const now = () => Math.floor(Date.now() / 1000);

interface BridgeRequest {
  method: string;
  path: string;
  query: URLSearchParams;
  authorization: string | undefined;
}

/** The bridge: claim tokens it issued (each once), and serves `answer` to the right credentials. */
class FakeBridge {
  readonly requests: BridgeRequest[] = [];
  /** Claim ids it issued, and whether each was claimed. */
  private readonly tokens = new Map<string, boolean>();
  answer: unknown = { errors: [], accounts: [] };
  /** Raw text served instead of `answer`, e.g. something that is not JSON. */
  rawAnswer: string | null = null;
  /** The accounts endpoint takes requests and never answers. */
  hang = false;
  private server!: Server;
  origin = "";

  async start(): Promise<void> {
    this.server = createServer((req, res) => void this.handle(req, res));
    await new Promise<void>((resolve) => this.server.listen(0, "127.0.0.1", resolve));
    this.origin = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
  }

  stop(): Promise<void> {
    return new Promise((resolve) => this.server.close(() => resolve()));
  }

  /** The access URL the bridge hands out, credentials in it. */
  accessUrl(password = PASSWORD): string {
    return `${this.origin.replace("http://", `http://${USER}:${password}@`)}/simplefin`;
  }

  /** A setup token the bridge will honour once, and its secret claim id. */
  issueToken(): { token: string; claimId: string } {
    const claimId = randomBytes(16).toString("hex");
    this.tokens.set(claimId, false);
    return { token: Buffer.from(`${this.origin}/simplefin/claim/${claimId}`).toString("base64"), claimId };
  }

  private handle(req: IncomingMessage, res: ServerResponse): void {
    const url = new URL(req.url ?? "/", this.origin);
    this.requests.push({ method: req.method ?? "", path: url.pathname, query: url.searchParams, authorization: req.headers.authorization });
    req.resume();
    const claim = /^\/simplefin\/claim\/([0-9a-f]+)$/.exec(url.pathname);
    if (req.method === "POST" && claim) {
      const claimId = claim[1] ?? "";
      if (this.tokens.get(claimId) !== false) return void res.writeHead(403).end("Token already claimed or unknown");
      this.tokens.set(claimId, true);
      return void res.writeHead(200, { "content-type": "text/plain" }).end(this.accessUrl());
    }
    if (req.method === "GET" && url.pathname === "/simplefin/accounts") {
      const expected = `Basic ${Buffer.from(`${USER}:${PASSWORD}`).toString("base64")}`;
      if (req.headers.authorization !== expected) return void res.writeHead(401).end(`Bad credentials for ${USER}`);
      if (this.hang) return;
      return void res.writeHead(200, { "content-type": "application/json" }).end(this.rawAnswer ?? JSON.stringify(this.answer));
    }
    res.writeHead(404).end();
  }
}

/** The documented account answer: a checking account and a card, with a pending transaction and a bridge error. */
function bankAnswer(origin: string, extra: { checking?: unknown[]; checkingBalance?: string; pendingPosted?: boolean } = {}) {
  const t = now();
  const org = { domain: "examplebank.test", name: "Example Bank", "sfin-url": `${origin}/simplefin` };
  return {
    errors: ["Connection to Example Bank may need attention"],
    accounts: [
      {
        org,
        id: "ACT-checking",
        name: "Everyday Checking",
        currency: "USD",
        balance: extra.checkingBalance ?? "1234.56",
        "available-balance": "1200.00",
        "balance-date": t,
        transactions: [
          { id: "TRN-1", posted: t - 10 * DAY, amount: "-12.34", description: "COFFEE SHOP #12", payee: "Coffee Shop", memo: "" },
          { id: "TRN-2", posted: t - 9 * DAY, amount: "2500.00", description: "PAYROLL", payee: "Employer Inc", memo: "March salary" },
          extra.pendingPosted
            ? { id: "TRN-3", posted: t - 2 * DAY, amount: "-5.00", description: "CORNER STORE", pending: false }
            : { id: "TRN-3", posted: 0, transacted_at: t - 2 * DAY, amount: "-5.00", description: "CORNER STORE", pending: true },
          ...(extra.checking ?? []),
        ],
      },
      {
        org,
        id: "ACT-card",
        name: "Rewards Visa Card",
        currency: "USD",
        balance: "-500.25",
        "available-balance": "4499.75",
        "balance-date": t,
        transactions: [
          { id: "TRN-4", posted: t - 8 * DAY, amount: "-80.00", description: "GROCERY MART", payee: "Grocery Mart" },
          { id: "TRN-5", posted: t - 7 * DAY, amount: "100.00", description: "PAYMENT THANK YOU" },
        ],
      },
    ],
  };
}

const logLines: string[] = [];
const answers: unknown[] = [];

async function startWith(options: Partial<ProviderConnectionOptions>): Promise<RunningFinance> {
  const sink = new Writable({
    write(chunk: Buffer, _encoding, done) {
      logLines.push(chunk.toString("utf8"));
      done();
    },
  });
  return startServiceUnderTest({
    ...financeUnderTest,
    create: (deps) =>
      createFinanceService({
        ...deps,
        log: createLogger("finance-test", "debug", sink),
        providerConnections: options,
        jobs: { pollMs: 50, heartbeatMs: 100 },
      }),
  });
}

/** Calls as `actor`, keeping every answer to look for credentials in. */
function callerFor(finance: RunningFinance, actor: Actor) {
  const call = financeAs(finance, actor);
  return async (procedure: Parameters<typeof call>[0], input: unknown = {}) => {
    const answer = await call(procedure, input);
    answers.push(answer);
    return answer;
  };
}

let bridge: FakeBridge;
let finance: RunningFinance;
let family: Actor;
let call: ReturnType<typeof callerFor>;

beforeAll(async () => {
  bridge = new FakeBridge();
  await bridge.start();
  finance = await startWith({ allowPrivateHosts: true });
  family = newActor();
  call = callerFor(finance, family);
}, 60_000);
afterAll(async () => {
  await finance?.stop();
  await bridge?.stop();
});

async function connections(caller = call): Promise<ProviderConnection[]> {
  return ProviderConnectionCollectionSchema.parse(await caller("providerConnections.list")).data;
}

/** Waits until the connection's latest sync ended (completed, failed or stale) and answers the connection. */
async function synced(id: string, caller = call): Promise<ProviderConnection> {
  return eventually(async () => {
    const connection = (await connections(caller)).find((each) => each.id === id);
    expect(connection?.sync.syncing).toBe(false);
    expect(["completed", "failed", "stale"]).toContain(connection?.sync.latest?.status);
    return connection!;
  });
}

async function register(body: Record<string, unknown>, caller = call): Promise<ProviderConnection> {
  const created = ProviderConnectionResponseSchema.parse(
    await caller("providerConnections.create", { provider_connection: { provider: "simplefin", ...body } }),
  );
  return created.data;
}

describe("a SimpleFIN Bridge connection registered by setup token", () => {
  let connectionId = "";
  let checkingId = "";
  let cardId = "";

  it("claims the token, syncs the bank's accounts and posted transactions with their signs, and anchors the balances", async () => {
    bridge.answer = bankAnswer(bridge.origin);
    const { token, claimId } = bridge.issueToken();
    const created = await register({ setup_token: token, name: "My bank" });
    connectionId = created.id;
    expect(created).toMatchObject({ provider: "simplefin", provider_type: "SimplefinItem", name: "My bank", status: "good", scheduled_for_deletion: false });

    const connection = await synced(connectionId);
    expect(connection.sync.latest).toMatchObject({ status: "completed", error: null });
    expect(connection).toMatchObject({
      status: "good",
      requires_update: false,
      credentials_configured: true,
      pending_account_setup: false,
      institution: { name: "Example Bank", domain: "examplebank.test", url: `${bridge.origin}/simplefin` },
      accounts: { total_count: 2, linked_count: 2, unlinked_count: 0 },
      sync: { syncing: false, status_summary: "2 accounts synced" },
    });
    expect(connection.sync.last_synced_at).toBe(connection.sync.latest?.completed_at);

    // The token was claimed once, then the accounts were asked for with the claimed basic credentials, no pending ones.
    expect(bridge.requests.map((r) => `${r.method} ${r.path}`)).toEqual([`POST /simplefin/claim/${claimId}`, "GET /simplefin/accounts"]);
    const fetched = bridge.requests[1]!;
    expect(fetched.authorization).toBe(`Basic ${Buffer.from(`${USER}:${PASSWORD}`).toString("base64")}`);
    expect(Number(fetched.query.get("start-date"))).toBeGreaterThan(now() - 91 * DAY);
    expect(Number(fetched.query.get("start-date"))).toBeLessThan(now() - 89 * DAY);
    expect(fetched.query.has("pending")).toBe(false);

    await settled(finance);
    const accounts = (await call("accounts.list")).accounts as {
      id: string;
      name: string;
      account_type: string;
      balance_cents: number;
      institution_name: string;
    }[];
    const checking = accounts.find((account) => account.name === "Everyday Checking");
    const card = accounts.find((account) => account.name === "Rewards Visa Card");
    expect(checking).toMatchObject({ account_type: "depository", balance_cents: 123456, institution_name: "Example Bank" });
    // The card's debt as the ledger keeps a liability: positive.
    expect(card).toMatchObject({ account_type: "credit_card", balance_cents: 50025 });
    checkingId = checking!.id;
    cardId = card!.id;

    // SimpleFIN's negative amounts are money out: the ledger's positive amounts. The pending one waits.
    const entries = await finance.db.entry.findMany({ where: { familyId: family.familyId, kind: "transaction" }, orderBy: { externalId: "asc" } });
    expect(entries.map((entry) => [entry.externalId, entry.source, entry.accountId, entry.amountCents])).toEqual([
      ["simplefin_TRN-1", "simplefin", checkingId, 1234n],
      ["simplefin_TRN-2", "simplefin", checkingId, -250000n],
      ["simplefin_TRN-4", "simplefin", cardId, 8000n],
      ["simplefin_TRN-5", "simplefin", cardId, -10000n],
    ]);
    expect(entries.every((entry) => entry.importId === connection.sync.latest?.id)).toBe(true);
    const listed = (await call("transactions.list", { account_id: checkingId })).transactions as Record<string, unknown>[];
    expect(listed.map((t) => [t["name"], t["classification"], t["signed_amount_cents"], t["notes"]])).toEqual([
      ["Employer Inc - PAYROLL", "income", 250000, "March salary | Payee: Employer Inc"],
      ["Coffee Shop - COFFEE SHOP #12", "expense", -1234, "Payee: Coffee Shop"],
    ]);
    const stats = (await finance.db.providerSync.findUniqueOrThrow({ where: { id: connection.sync.latest!.id } })).stats;
    expect(stats).toMatchObject({ transactions: 4, skipped_pending: 1, skipped_duplicates: 0, bridge_errors: 1, accounts_created: 2 });
  });

  it("a second sync writes no duplicates; what posted since (the pending one, a new one) is written, and the family's rules apply to it", async () => {
    const coffee = await call("categories.create", { category: { name: "Coffee" } });
    await call("rules.create", {
      rule: {
        name: "Coffee",
        conditions: [{ condition_type: "transaction_name", operator: "like", value: "coffee" }],
        actions: [{ action_type: "set_transaction_category", value: coffee.id }],
      },
    });
    bridge.answer = bankAnswer(bridge.origin, {
      pendingPosted: true,
      checkingBalance: "1224.01",
      checking: [{ id: "TRN-6", posted: now() - DAY, amount: "-5.55", description: "COFFEE SHOP #13", payee: "Coffee Shop" }],
    });
    const previous = (await connections()).find((each) => each.id === connectionId)?.sync.latest?.id;
    const before = bridge.requests.length;
    const queued = ProviderConnectionResponseSchema.parse(await call("providerConnections.sync", { id: connectionId })).data;
    // The answer shows the new run (queued, or already under way or done: the worker is quick here).
    expect(queued.sync.latest?.id).toBeDefined();
    expect(queued.sync.latest?.id).not.toBe(previous);
    const connection = await synced(connectionId);
    expect(connection.sync.latest?.status).toBe("completed");
    // The setup token is not claimed again: the access URL was kept.
    expect(bridge.requests.slice(before).map((r) => `${r.method} ${r.path}`)).toEqual(["GET /simplefin/accounts"]);

    const entries = await finance.db.entry.findMany({ where: { familyId: family.familyId, kind: "transaction" }, orderBy: { externalId: "asc" } });
    expect(entries.map((entry) => entry.externalId)).toEqual([
      "simplefin_TRN-1",
      "simplefin_TRN-2",
      "simplefin_TRN-3",
      "simplefin_TRN-4",
      "simplefin_TRN-5",
      "simplefin_TRN-6",
    ]);
    const byId = new Map(entries.map((entry) => [entry.externalId, entry]));
    expect(byId.get("simplefin_TRN-6")).toMatchObject({ amountCents: 555n, categoryId: coffee.id, importId: connection.sync.latest?.id });
    expect(byId.get("simplefin_TRN-3")).toMatchObject({ amountCents: 500n, categoryId: null });
    // Written by the earlier sync: the new rule is not run over it here.
    expect(byId.get("simplefin_TRN-1")?.categoryId).toBeNull();
    const stats = (await finance.db.providerSync.findUniqueOrThrow({ where: { id: connection.sync.latest!.id } })).stats;
    expect(stats).toMatchObject({ transactions: 2, skipped_duplicates: 4, skipped_pending: 0, accounts_created: 0 });

    await settled(finance);
    expect((await call("accounts.get", { id: checkingId })).balance_cents).toBe(122401);
    expect((await call("accounts.get", { id: cardId })).balance_cents).toBe(50025);
  });

  it("an account deleted by the family stays unlinked: the next sync does not make it again", async () => {
    await call("accounts.delete", { id: cardId });
    await settled(finance);
    await call("providerConnections.sync", { id: connectionId });
    const connection = await synced(connectionId);
    expect(connection).toMatchObject({
      pending_account_setup: true,
      accounts: { total_count: 2, linked_count: 1, unlinked_count: 1 },
      sync: { status_summary: "1 synced, 1 need setup" },
    });
    const names = ((await call("accounts.list")).accounts as { name: string }[]).map((account) => account.name);
    expect(names).toEqual(["Everyday Checking"]);
  });

  it("another family sees none of it, and cannot sync or delete it", async () => {
    const other = callerFor(finance, newActor());
    expect(await connections(other)).toEqual([]);
    await expectAppError(other("providerConnections.sync", { id: connectionId }), "record_not_found");
    await expectAppError(other("providerConnections.delete", { id: connectionId }), "record_not_found");
    expect((await connections()).map((connection) => connection.id)).toContain(connectionId);
  });

  it("deleting the connection removes it and its credentials; the accounts it made and their transactions stay", async () => {
    await call("providerConnections.delete", { id: connectionId });
    expect(await connections()).toEqual([]);
    expect(await finance.db.providerConnection.count({ where: { id: connectionId } })).toBe(0);
    expect(await finance.db.providerAccount.count({ where: { connectionId } })).toBe(0);
    expect(((await call("accounts.list")).accounts as { id: string }[]).map((account) => account.id)).toEqual([checkingId]);
    expect(await finance.db.entry.count({ where: { accountId: checkingId, kind: "transaction" } })).toBe(4);
    await expectAppError(call("providerConnections.sync", { id: connectionId }), "record_not_found");
  });
});

describe("a sync that fails keeps a sanitized category, never the bridge's text", () => {
  it("a setup token the bridge refuses (used already): failed, requires_update", async () => {
    const { token } = bridge.issueToken();
    const first = await register({ setup_token: token });
    await synced(first.id);
    const reused = await synced((await register({ setup_token: token })).id);
    expect(reused).toMatchObject({
      status: "requires_update",
      requires_update: true,
      credentials_configured: false,
      accounts: { total_count: 0, linked_count: 0, unlinked_count: 0 },
      sync: {
        syncing: false,
        last_synced_at: null,
        status_summary: "No accounts found",
        latest: { status: "failed", error: { present: true, message: "The setup token was refused: it may have been used already or expired" } },
      },
    });
    expect(reused.sync.latest?.failed_at).not.toBeNull();
  });

  it("a 401 from the bridge: failed, requires_update, and the bridge's own words are nowhere", async () => {
    const connection = await synced((await register({ access_url: bridge.accessUrl("wrong-password") })).id);
    expect(connection).toMatchObject({
      status: "requires_update",
      credentials_configured: true,
      sync: { latest: { status: "failed", error: { present: true, message: "The bridge refused the connection's credentials" } } },
    });
    expect(JSON.stringify(connection)).not.toContain("Bad credentials");
  });

  it("an unreachable bridge: failed, still good standing (the next sync may reach it)", async () => {
    const closed = createServer();
    await new Promise<void>((resolve) => closed.listen(0, "127.0.0.1", resolve));
    const port = (closed.address() as AddressInfo).port;
    await new Promise((resolve) => closed.close(resolve));
    const connection = await synced((await register({ access_url: `http://${USER}:${PASSWORD}@127.0.0.1:${port}/simplefin` })).id);
    expect(connection).toMatchObject({ status: "good", sync: { latest: { status: "failed", error: { message: "The bridge could not be reached" } } } });
  });

  it("an answer that is not the protocol's, and errors without accounts", async () => {
    bridge.rawAnswer = "<html>Maintenance</html>";
    try {
      const unreadable = await synced((await register({ access_url: bridge.accessUrl() })).id);
      expect(unreadable.sync.latest?.error?.message).toBe("The bridge's answer could not be read");
    } finally {
      bridge.rawAnswer = null;
    }
    bridge.answer = { errors: ["Your bank login needs attention at https://bridge.example/secret"], accounts: [] };
    const reported = await synced((await register({ access_url: bridge.accessUrl() })).id);
    expect(reported.sync.latest?.error?.message).toBe("The bridge reported errors and sent no accounts");
    expect(JSON.stringify(reported)).not.toContain("bridge.example");
  });

  it("a service that stops cuts a bridge request short and puts its run back in the queue; started again, it finishes it", async () => {
    const jobs = finance.parts.jobs;
    bridge.hang = true;
    bridge.answer = { errors: [], accounts: [] };
    const before = bridge.requests.length;
    const { id } = await register({ access_url: bridge.accessUrl() });
    try {
      await eventually(async () => expect(bridge.requests.length).toBeGreaterThan(before));
      const started = Date.now();
      await jobs.stop({ interrupt: true });
      expect(Date.now() - started).toBeLessThan(5_000);
      const [sync] = await finance.db.providerSync.findMany({ where: { connectionId: id } });
      expect(sync).toMatchObject({ status: "pending", syncingAt: null, error: null });
      expect(await finance.db.job.findFirstOrThrow({ where: { queue: PROVIDER_SYNC_QUEUE, subjectId: sync!.id } })).toMatchObject({
        status: "queued",
        attempts: 0,
      });
    } finally {
      bridge.hang = false;
      jobs.start();
    }
    const connection = await synced(id);
    expect(connection.sync.latest).toMatchObject({ status: "completed", error: null });
    expect(connection.sync.status_summary).toBe("No accounts found");
  });

  it("a run whose worker died mid-request is taken over at once and run again (was: left to turn stale)", async () => {
    bridge.hang = true;
    bridge.answer = { errors: [], accounts: [] };
    const before = bridge.requests.length;
    const { id } = await register({ access_url: bridge.accessUrl() });
    try {
      await eventually(async () => expect(bridge.requests.length).toBeGreaterThan(before));
      const [sync] = await finance.db.providerSync.findMany({ where: { connectionId: id } });
      const job = await finance.db.job.findFirstOrThrow({ where: { queue: PROVIDER_SYNC_QUEUE, subjectId: sync!.id } });
      bridge.hang = false;
      // The worker's job connection ends, as with its process: its job is a dead worker's, taken over at the next claim.
      await endJobConnection(finance, job.id);
    } finally {
      bridge.hang = false;
    }
    const connection = await synced(id);
    expect(connection.sync.latest).toMatchObject({ status: "completed", error: null });
    const runs = await finance.db.providerSync.findMany({ where: { connectionId: id } });
    expect(runs).toHaveLength(1);
    expect(await finance.db.job.findFirstOrThrow({ where: { subjectId: runs[0]!.id } })).toMatchObject({ status: "succeeded", attempts: 2 });
  });

  it("a setup token or access URL that cannot be one is refused at once (422), nothing stored", async () => {
    const count = await finance.db.providerConnection.count();
    await expectAppError(register({ setup_token: "not a token!" }), "validation_failed");
    await expectAppError(register({ setup_token: Buffer.from("ftp://bridge.example/claim/1").toString("base64") }), "validation_failed");
    await expectAppError(register({ access_url: `${bridge.origin}/simplefin` }), "validation_failed");
    await expectAppError(register({ setup_token: bridge.issueToken().token, access_url: bridge.accessUrl() }), "validation_failed");
    expect(await finance.db.providerConnection.count()).toBe(count);
  });
});

describe("a family's connections", () => {
  it("stop at 25 though 34 are asked for at once; the list answers every one stored, even past the cap", async () => {
    const many = newActor();
    const manyCall = callerFor(finance, many);
    const asked = await Promise.allSettled(Array.from({ length: 34 }, () => register({ access_url: bridge.accessUrl() }, manyCall)));
    expect(asked.filter((answer) => answer.status === "fulfilled")).toHaveLength(PROVIDER_CONNECTION_LIMIT);
    for (const refused of asked.filter((answer) => answer.status === "rejected")) {
      expect((refused as PromiseRejectedResult).reason).toMatchObject({ code: "validation_failed" });
    }
    expect(await finance.db.providerConnection.count({ where: { familyId: many.familyId } })).toBe(PROVIDER_CONNECTION_LIMIT);

    // Stored past the cap (as before creates were counted under a lock): listed whole, not a 500.
    const [one] = await finance.db.providerConnection.findMany({ where: { familyId: many.familyId }, take: 1 });
    const { id: _id, createdAt: _c, updatedAt: _u, ...copy } = one!;
    await finance.db.providerConnection.createMany({ data: Array.from({ length: 5 }, () => copy) });
    expect(await connections(manyCall)).toHaveLength(PROVIDER_CONNECTION_LIMIT + 5);

    // Their syncs done and the connections gone, the bridge is quiet for the cases after this one.
    await eventually(async () =>
      expect(await finance.db.providerSync.count({ where: { familyId: many.familyId, status: { in: ["pending", "syncing"] } } })).toBe(0),
    );
    await finance.db.providerConnection.deleteMany({ where: { familyId: many.familyId } });
  });
});

describe("credentials", () => {
  it("are in no answer and no log line, and are stored sealed", async () => {
    expect(answers.length).toBeGreaterThan(10);
    const secrets = [PASSWORD, ...bridge.requests.filter((r) => r.path.includes("/claim/")).map((r) => r.path.split("/").pop() ?? "")];
    expect(secrets.length).toBeGreaterThan(2);
    const answered = JSON.stringify(answers);
    const logged = logLines.join("");
    expect(logged).toContain("provider sync completed");
    for (const secret of secrets) {
      expect(answered).not.toContain(secret);
      expect(logged).not.toContain(secret);
    }
    const stored = await finance.db.providerConnection.findMany({ select: { sealedCredentials: true } });
    expect(stored.length).toBeGreaterThan(0);
    for (const { sealedCredentials } of stored) {
      expect(sealedCredentials).toMatch(/^v1\./);
      for (const secret of secrets) expect(sealedCredentials).not.toContain(secret);
    }
  });
});

describe("addresses refused when PROVIDER_ALLOW_PRIVATE_HOSTS is off (SSRF)", () => {
  let strict: RunningFinance;
  let strictCall: ReturnType<typeof callerFor>;

  beforeAll(async () => {
    strict = await startWith({ allowPrivateHosts: false });
    strictCall = callerFor(strict, newActor());
  }, 60_000);
  afterAll(async () => strict?.stop());

  it("a plain http URL or a literal private address is refused at registration", async () => {
    const http = await expectAppError(register({ access_url: bridge.accessUrl() }, strictCall), "validation_failed");
    expect(http.message).toBe("The access URL is not allowed: it must be an https URL");
    const loopback = await expectAppError(register({ access_url: `https://${USER}:${PASSWORD}@127.0.0.1:1/simplefin` }, strictCall), "validation_failed");
    expect(loopback.message).toBe("The access URL is not allowed: it points at a loopback address (127.0.0.1)");
    const metadata = await expectAppError(
      register({ setup_token: Buffer.from("https://169.254.169.254/latest").toString("base64") }, strictCall),
      "validation_failed",
    );
    expect(metadata.message).toContain("cloud metadata");
    expect(await strict.db.providerConnection.count()).toBe(0);
  });

  it("a host name that resolves to a private address: the sync fails before anything is sent", async () => {
    const port = new URL(bridge.origin).port;
    const before = bridge.requests.length;
    const token = Buffer.from(`https://localhost:${port}/simplefin/claim/${bridge.issueToken().claimId}`).toString("base64");
    const connection = await synced((await register({ setup_token: token }, strictCall)).id, strictCall);
    expect(connection.sync.latest).toMatchObject({ status: "failed", error: { present: true, message: "The bridge's address is not allowed" } });
    expect(connection.status).toBe("good");
    expect(bridge.requests.length).toBe(before);
  });
});

describe("reading the bridge's answer", () => {
  const account = (fields: Record<string, unknown>) => ({ id: "A", name: "Checking", currency: "USD", balance: "0", transactions: [], ...fields });
  const epoch = Date.UTC(2026, 2, 15, 23, 30) / 1000;

  it("amounts become minor units by integer arithmetic: decimals beyond the currency's rounded half away from zero", () => {
    expect(centsOfAmount("-12.34", "USD")).toBe(-1234n);
    expect(centsOfAmount("0.1", "USD")).toBe(10n);
    expect(centsOfAmount("-0.005", "USD")).toBe(-1n);
    expect(centsOfAmount("1234567890.125", "USD")).toBe(123456789013n);
    expect(centsOfAmount("1500", "JPY")).toBe(1500n);
    expect(centsOfAmount("1.2345", "KWD")).toBe(1235n);
    expect(centsOfAmount(19.99, "USD")).toBe(1999n);
    for (const bad of ["", "abc", "1.2.3", "12-", Number.NaN, Number.POSITIVE_INFINITY, "99999999999999999"])
      expect(centsOfAmount(bad, "USD"), String(bad)).toBeNull();
  });

  it("posted transactions in the ledger's sign, dated by their UTC posting day; pending, unreadable and repeated ones skipped", () => {
    const answer = readBridgeAnswer({
      errors: [],
      accounts: [
        account({
          transactions: [
            { id: "1", posted: epoch, amount: "-4.50", description: "Bakery" },
            { id: 2, posted: String(epoch), amount: 100, payee: "Refund", description: "Refund" },
            { id: "1", posted: epoch, amount: "-4.50", description: "Bakery again" },
            { id: "3", posted: 0, transacted_at: epoch, amount: "-1.00" },
            { id: "4", posted: epoch, amount: "-1.00", pending: true },
            { id: "5", posted: epoch, amount: "lots" },
            { id: "6", amount: "-1.00" },
            { posted: epoch, amount: "-1.00" },
          ],
        }),
      ],
    });
    expect(answer?.accounts[0]).toMatchObject({
      transactions: [
        { externalId: "simplefin_1", date: "2026-03-15", amountCents: 450n, name: "Bakery", notes: null },
        { externalId: "simplefin_2", date: "2026-03-15", amountCents: -10000n, name: "Refund", notes: null },
      ],
      skippedPending: 2,
      skippedInvalid: 4,
    });
  });

  it("cards by their name (their debt positive), deposit accounts otherwise; a currency that is no ISO code leaves the account unlinkable", () => {
    const answer = readBridgeAnswer({
      accounts: [
        account({ id: "card", name: "Sapphire Visa", balance: "-75.10", "balance-date": epoch }),
        account({ id: "savings", name: "Savings", balance: "10.00" }),
        account({ id: "points", name: "Airline miles", currency: "https://bank.example/miles", balance: "5000" }),
        account({ id: "card", name: "Duplicate id" }),
        { id: "broken" },
      ],
    });
    expect(answer).toMatchObject({ errorCount: 0, skippedAccounts: 2 });
    expect(answer?.accounts.map((a) => [a.externalId, a.accountType, a.currency, a.balanceCents])).toEqual([
      ["card", "credit_card", "USD", 7510n],
      ["savings", "depository", "USD", 1000n],
      ["points", "depository", null, null],
    ]);
    expect(answer?.accounts[0]?.balanceDate).toBe("2026-03-15");
  });

  it("an institution URL is shown without credentials, query or fragment; the domain comes from it when missing", () => {
    const [first] =
      readBridgeAnswer({ accounts: [account({ org: { name: "Bank", "sfin-url": "https://user:secret@bridge.example/simplefin?token=x#y" } })] })?.accounts ??
      [];
    expect(first?.institution).toEqual({ name: "Bank", domain: "bridge.example", url: "https://bridge.example/simplefin" });
  });

  it("anything but the protocol's shape is no answer", () => {
    for (const json of [null, [], "text", { accounts: "none" }, { errors: [] }]) expect(readBridgeAnswer(json)).toBeNull();
  });
});

describe("daily syncs", () => {
  it("queues every connection due, not only the first batch (was: 50 per ten-minute reconcile)", async () => {
    const familyId = newActor().familyId;
    await finance.parts.jobs.stop();
    try {
      await finance.db.providerConnection.createMany({
        data: Array.from({ length: 120 }, (_, i) => ({
          familyId,
          provider: "simplefin",
          name: `Bank ${i}`,
          sealedCredentials: "sealed",
          credentialsKind: "access_url",
        })),
      });
      const { job } = createProviderConnectionsModule(finance.db, createLogger("daily-syncs", "silent"), "not used by the reconcile", () => undefined);
      await job.reconcile!();
      expect(await finance.db.providerSync.count({ where: { familyId, status: "pending" } })).toBe(120);
      expect(await finance.db.job.count({ where: { queue: PROVIDER_SYNC_QUEUE, familyId, status: "queued" } })).toBe(120);
    } finally {
      await finance.db.providerConnection.deleteMany({ where: { familyId } });
      await finance.db.job.deleteMany({ where: { familyId } });
      finance.parts.jobs.start();
    }
  });
});
