import { randomUUID } from "node:crypto";
import { decodeJwt } from "jose";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ErrorBodySchema, methodsOf, routes, type HttpMethod, type RouteDef } from "@hearth/contracts";
import { startOidcProvider, testPostgresAdminUrl, type TestOidcProvider } from "@hearth/test-kit";
import {
  SECOND_DEVICE,
  apiClient,
  answersWithinOneSecond,
  eventually,
  logIn,
  signUpUser,
  startSystem,
  type ApiClient,
  type TestSystem,
  type TestUser,
} from "../src";
import { resigned, unsigned, withFlippedSignatureBit, withForeignClaims } from "../src/access/forged-tokens";
import { referenceFieldsOf, withField, type ReferenceField } from "../src/access/reference-fields";
import { VICTIM_IDP_SECRET, VICTIM_SSO_USER, createVictimFamily, investmentRecords, type OwnedRecord, type VictimFamily } from "../src/access/victim-family";
import { createFuzzFamily, type FuzzFamily } from "../src/fuzz/fuzz-family";
import { problemWith } from "../src/fuzz/route-requests";

// Generated from the route table: every route naming a record by its path reaches no other
// family's record (404, the same answer as for an id that exists nowhere, and the record is
// unchanged), and every route refuses a forged, expired or ended credential with 401.

const all = Object.values(routes) as RouteDef[];
const label = (route: RouteDef, method: HttpMethod = route.method) => `${method} ${route.path}`;

/** The kind of record a path names: the segment before its first parameter (`users` in `/api/v1/users/:id/role`). */
function kindOf(route: RouteDef): string | null {
  const segments = route.path.split("/");
  const at = segments.findIndex((segment) => segment.startsWith(":"));
  return at < 0 ? null : (segments[at - 1] ?? null);
}

/** Parametrised routes this suite cannot point at another family's record, and why. */
const NOT_FAMILY_RECORDS: Record<string, string> = {
  "GET /api/v1/auth/sso/:id/authorize": "public: it starts a sign-in at any enabled provider by design, with no caller family to isolate",
  "GET /auth/mobile/:provider": "public, Sure's mobile SSO start: it names a provider by its name, not a record of any family, and answers only with redirects",
};

/**
 * A valid body for each parametrised route that takes one, so a 404 cannot be a refused body in
 * disguise (each is checked against the route's schema below).
 */
const VALID_BODIES: Record<string, unknown> = {
  "members.updateRole": { role: "admin" },
  "imports.publish": {},
  "imports.accountMappings": { mappings: [{ name: "Elsewhere", create: true }] },
  "importSessions.publish": {},
  "importSessions.addChunk": { sequence: 1, raw_file_content: JSON.stringify({ type: "Tag", data: { id: "t1", name: "Taken over" } }) },
  "imports.revert": {},
  "ssoProviders.update": { sso_provider: { name: "taken-over", client_id: "attacker" } },
  "ssoProviders.test": { redirect_uri: "hearth://oauth/callback" },
  "accounts.update": { account: { name: "Taken over", status: "disabled" } },
  "transactions.update": { transaction: { name: "Taken over", amount: "999.99", notes: "changed by another family" } },
  "valuations.update": { valuation: { amount: "999.99", date: "2024-03-02", notes: "changed by another family" } },
  "transfers.update": { transfer: { status: "rejected", notes: "changed by another family" } },
  "categories.update": { category: { name: "Taken over", color: "#000000" } },
  "tags.update": { tag: { name: "Taken over", color: "#000000" } },
  "merchants.update": { merchant: { name: "Taken over", color: "#000000" } },
  "trades.update": { trade: { qty: "99", notes: "changed by another family" } },
  "budgets.update": { budget: { budgeted_spending: "999", expected_income: "1" } },
  "budgetCategories.update": { budget_category: { budgeted_spending: "999", rollover_enabled: true } },
  "rules.update": { rule: { name: "Taken over", active: false } },
  "rules.apply": { ignore_attribute_locks: true },
  "rules.preview": {},
  "recurringTransactions.update": { recurring_transaction: { status: "inactive", expected_day_of_month: 9 } },
  "chats.update": { title: "Taken over" },
  "messages.create": { content: "Taken over" },
};

/**
 * Cases where another family's id does not answer 404, each marked `it.fails` until the service
 * is mended (label with method and credential, as the test names it).
 */
const KNOWN_LEAKS: Record<string, string> = {};

const parametrised = all.filter((route) => kindOf(route) !== null);

let system: TestSystem;
let api: ApiClient;
let idp: TestOidcProvider;
let victim: VictimFamily;
/** The family that tries: a few records of every kind of its own, for the bodies that must name some. */
let attackers: FuzzFamily;
let attacker: TestUser;

beforeAll(async () => {
  system = await startSystem({ adminUrl: testPostgresAdminUrl(), gatewayEnv: { RATE_LIMIT_REQUESTS: "100000", SESSION_RATE_LIMIT_REQUESTS: "100000" } });
  api = apiClient(system.url);
  idp = await startOidcProvider({
    clients: [{ client_id: "hearth", client_secret: VICTIM_IDP_SECRET, redirect_uris: [`${system.url}/api/v1/auth/sso/callback`] }],
    users: [VICTIM_SSO_USER],
  });
  victim = await createVictimFamily(api, idp);
  attackers = await createFuzzFamily(api, 0);
  attacker = attackers.admin;
}, 120_000);
afterAll(async () => {
  await idp?.stop();
  await system?.stop();
});

describe("the route table and this suite agree", () => {
  it("every parametrised route names a kind of record the victim family has, or is listed with its reason", () => {
    const uncovered = parametrised
      .filter((route) => !((kindOf(route) ?? "") in victim.records) && !(label(route) in NOT_FAMILY_RECORDS))
      .map((route) => label(route));
    expect(uncovered).toEqual([]);
    const stale = Object.keys(NOT_FAMILY_RECORDS).filter((name) => !parametrised.some((route) => label(route) === name));
    expect(stale).toEqual([]);
  });

  it("every parametrised route with a body has a valid one here", () => {
    const withBody = parametrised.filter((route) => route.body && !(label(route) in NOT_FAMILY_RECORDS));
    expect(withBody.filter((route) => !(route.procedure in VALID_BODIES)).map((route) => route.procedure)).toEqual([]);
    for (const route of withBody) expect(route.body?.safeParse(VALID_BODIES[route.procedure]).success, route.procedure).toBe(true);
    expect(Object.keys(VALID_BODIES).filter((procedure) => !withBody.some((route) => route.procedure === procedure))).toEqual([]);
  });
});

/** Reads a record back as its owner: by its own GET route, else by finding it in its list. */
async function readBack(kind: string, record: OwnedRecord): Promise<unknown> {
  const byId = all.find((route) => route.method === "GET" && route.path === `/api/v1/${kind}/:id`);
  const list = all.find((route) => route.method === "GET" && route.path === `/api/v1/${kind}`);
  const reader = byId ?? list;
  if (!reader) throw new Error(`no route reads ${kind}`);
  const credential = reader.access.auth === "bearer" || !record.owner.apiKey ? { token: record.owner.token } : { apiKey: record.owner.apiKey };
  const res = await api.get(byId ? `/api/v1/${kind}/${record.id}` : `/api/v1/${kind}`, credential);
  expect(res.status, `${kind} read back: ${JSON.stringify(res.body)}`).toBe(200);
  if (byId) return res.body;
  const items = Object.values(res.body as Record<string, unknown>).find(Array.isArray) as { id: string }[] | undefined;
  const item = items?.find((candidate) => candidate.id === record.id);
  expect(item, `${kind} ${record.id} in its list`).toBeDefined();
  return item;
}

type Credential = { token: string } | { apiKey: string };

interface IsolationCase {
  name: string;
  route: RouteDef;
  method: HttpMethod;
  kind: string;
  credential: () => Credential;
}

const isolationCases: IsolationCase[] = parametrised
  .filter((route) => !(label(route) in NOT_FAMILY_RECORDS))
  .flatMap((route) =>
    methodsOf(route).flatMap((method) => {
      const kind = kindOf(route) ?? "";
      const bearer: IsolationCase = { name: `${label(route, method)} (bearer)`, route, method, kind, credential: () => ({ token: attacker.accessToken }) };
      if (route.access.auth === "bearer") return [bearer];
      return [bearer, { name: `${label(route, method)} (API key)`, route, method, kind, credential: () => ({ apiKey: attacker.writeKey }) }];
    }),
  );

describe("another family's record, named in the path", () => {
  for (const testCase of isolationCases) {
    const { name, route, method, kind } = testCase;
    const run = KNOWN_LEAKS[name] ? it.fails : it;
    run(`${name}: 404 as for an id that exists nowhere, and the record is unchanged`, async () => {
      const record = victim.records[kind];
      if (!record) throw new Error(`the victim family has no ${kind}`);
      // The record's id for the first parameter; a second one (a chat's message) names the record's own child.
      const send = (id: string) =>
        api.request(method, route.path.replace(/:[A-Za-z_]+/, id).replace(/:[A-Za-z_]+/, record.childId ?? randomUUID()), {
          ...testCase.credential(),
          ...(route.body ? { body: VALID_BODIES[route.procedure] } : {}),
        });
      const before = await readBack(kind, record);

      const nowhere = await send(randomUUID());
      const res = await send(record.id);

      expect(res.status, JSON.stringify(res.body)).toBe(404);
      expect(ErrorBodySchema.safeParse(res.body).success).toBe(true);
      expect(problemWith(route, { status: res.status, contentType: res.headers.get("content-type"), body: res.body })).toBeNull();
      const notFound = route.sureErrors?.notFound;
      if (notFound) expect(res.body).toMatchObject({ error: route.sureErrors?.sentenceInError ? notFound : "not_found", message: notFound });
      // No oracle: a record of another family looks exactly like one that does not exist.
      expect(res.body).toEqual(nowhere.body);
      expect(await readBack(kind, record)).toEqual(before);
    });
  }
});

/** The kind of record each reference field names (generated from the schemas: see the first check below). */
const FIELD_KINDS: Record<string, string> = {
  account_id: "accounts",
  account_ids: "accounts",
  from_account_id: "accounts",
  to_account_id: "accounts",
  category_id: "categories",
  category_ids: "categories",
  parent_id: "categories",
  merchant_id: "merchants",
  merchant_ids: "merchants",
  tag_ids: "tags",
  userId: "users",
  security_id: "securities",
  transfer_account_id: "accounts",
  budget_id: "budgets",
  rule_id: "rules",
};
/** Filters that only find something in an investment account: the victim's brokerage, not its checking account. */
const QUERY_FIELD_KINDS: Record<string, string> = {
  "GET /api/v1/trades?account_id": "investment_accounts",
  "GET /api/v1/trades?account_ids": "investment_accounts",
  "GET /api/v1/holdings?account_id": "investment_accounts",
  "GET /api/v1/holdings?account_ids": "investment_accounts",
};
/** Fields named like a reference that name no record of a family. */
const NOT_REFERENCES: Record<string, string> = {
  device_id: "the client's own name for its device",
  client_id: "the OpenID client id at the provider",
  external_id: "the client's own key for an imported transaction",
  client_session_id: "the client's own idempotency key of an import session, unique within its family",
  client_chunk_id: "the client's own idempotency key of a chunk, unique within its session",
};

let serial = 0;
let childCategory = "";
/** The attacking family's brokerage, trade and security. */
let attackerInvestments: Awaited<ReturnType<typeof investmentRecords>>;
const own = (kind: string, at = 0) => attackers.ids[kind]?.stable[at] ?? "";
/**
 * A write the attacking family may make with its own ids (so refusing another family's is no
 * refused body in disguise); `bodyFor` a field only some kinds of the write use.
 */
const ATTACKER_WRITES: Record<string, { record?: () => string; body: () => unknown; bodyFor?: Record<string, () => unknown> }> = {
  "transactions.create": {
    body: () => ({
      transaction: {
        account_id: own("accounts"),
        date: "2024-06-01",
        amount: "12.34",
        name: `Probe ${++serial}`,
        category_id: own("categories"),
        merchant_id: own("merchants"),
        tag_ids: [own("tags")],
      },
    }),
  },
  "transactions.update": {
    record: () => own("transactions"),
    body: () => ({ transaction: { category_id: own("categories"), merchant_id: own("merchants"), tag_ids: [own("tags")] } }),
  },
  "valuations.create": {
    body: () => ({ valuation: { account_id: own("accounts"), amount: "75", date: `2024-07-${String((++serial % 28) + 1).padStart(2, "0")}` } }),
  },
  "transfers.create": {
    body: () => ({ transfer: { from_account_id: own("accounts"), to_account_id: own("accounts", 1), amount: "3", date: "2024-06-02" } }),
  },
  "categories.create": { body: () => ({ category: { name: `Probe ${++serial}`, parent_id: own("categories") } }) },
  "categories.update": { record: () => childCategory, body: () => ({ category: { parent_id: own("categories") } }) },
  "trades.create": {
    body: () => ({
      trade: {
        account_id: attackerInvestments.account,
        type: "buy",
        date: "2024-06-03",
        qty: "1",
        price: "10",
        security_id: attackerInvestments.security,
        category_id: own("categories"),
      },
    }),
    bodyFor: {
      "trade.transfer_account_id": () => ({
        trade: { account_id: attackerInvestments.account, type: "deposit", date: "2024-06-03", amount: "5", transfer_account_id: own("accounts") },
      }),
    },
  },
  "trades.update": { record: () => attackerInvestments.trade, body: () => ({ trade: { category_id: own("categories") } }) },
  "recurringTransactions.create": {
    body: () => ({
      recurring_transaction: {
        account_id: own("accounts"),
        merchant_id: own("merchants"),
        amount: `${++serial}.25`,
        currency: "USD",
        expected_day_of_month: (serial % 28) + 1,
        last_occurrence_date: "2024-04-05",
        next_expected_date: "2024-05-05",
      },
    }),
  },
  "imports.create": {
    body: () => ({ type: "TransactionImport", account_id: own("accounts"), raw_file_content: `date,amount,name\n06/01/2024,-1.00,Probe ${++serial}` }),
  },
  "imports.preflight": {
    body: () => ({ type: "TransactionImport", account_id: own("accounts"), raw_file_content: "date,amount,name\n06/01/2024,-1.00,Probe" }),
  },
  "securityPrices.record": {
    body: () => ({
      security_price: { security_id: attackerInvestments.security, date: `2024-08-${String((++serial % 28) + 1).padStart(2, "0")}`, price: "10" },
    }),
  },
};

interface ReferenceCase {
  route: RouteDef;
  part: "query" | "body";
  field: ReferenceField;
}

const referenceCases: ReferenceCase[] = all.flatMap((route) =>
  (["query", "body"] as const).flatMap((part) =>
    referenceFieldsOf(route[part])
      .filter((field) => !(field.name in NOT_REFERENCES))
      .map((field) => ({ route, part, field })),
  ),
);

describe("another family's id in a query or body", () => {
  beforeAll(async () => {
    const child = await api.post("/api/v1/categories", { category: { name: "Probe child" } }, { apiKey: attacker.writeKey });
    expect(child.status).toBe(201);
    childCategory = child.body.id;
    attackerInvestments = await investmentRecords(api, { apiKey: attacker.writeKey }, own("categories"));
  });

  it("every field named like a reference names a kind of record, or is listed as no reference", () => {
    const unknown = referenceCases.filter(({ field }) => !(field.name in FIELD_KINDS)).map(({ route, field }) => `${route.procedure} ${field.path}`);
    expect(unknown).toEqual([]);
    const writes = [...new Set(referenceCases.filter(({ part }) => part === "body").map(({ route }) => route.procedure))];
    expect(writes.filter((procedure) => !(procedure in ATTACKER_WRITES))).toEqual([]);
    expect(Object.keys(ATTACKER_WRITES).filter((procedure) => !writes.includes(procedure))).toEqual([]);
  });

  const credentialFor = (route: RouteDef): Credential => (route.access.auth === "bearer" ? { token: attacker.accessToken } : { apiKey: attacker.writeKey });
  const pathOf = (route: RouteDef) => route.path.replace(/:[A-Za-z_]+/, ATTACKER_WRITES[route.procedure]?.record?.() ?? randomUUID());

  for (const { route, part, field } of referenceCases.filter((each) => each.part === "query")) {
    const name = `${label(route)}?${field.path}`;
    (KNOWN_LEAKS[name] ? it.fails : it)(`${name}: another family's id answers as an id that exists nowhere`, async () => {
      const record = victim.records[QUERY_FIELD_KINDS[name] ?? FIELD_KINDS[field.name] ?? ""];
      if (!record) throw new Error(`the victim family has no record for ${field.name}`);
      const list = (id: string, credential = credentialFor(route)) => api.get(`${route.path}?${field.list ? `${field.name}[]` : field.name}=${id}`, credential);
      const nowhere = await list(randomUUID());
      // The owner's own list by that id differs from the empty answer: there is something to leak.
      const owner = route.access.auth === "bearer" || !record.owner.apiKey ? { token: record.owner.token } : { apiKey: record.owner.apiKey };
      await eventually(async () => expect((await list(record.id, owner)).body).not.toEqual(nowhere.body));

      const res = await list(record.id);
      expect(res.status, `${part}: ${JSON.stringify(res.body)}`).toBe(nowhere.status);
      expect(res.body).toEqual(nowhere.body);
    });
  }

  for (const { route, field } of referenceCases.filter((each) => each.part === "body")) {
    const name = `${label(route)} ${field.path}`;
    (KNOWN_LEAKS[name] ? it.fails : it)(`${name}: another family's id is refused as an id that exists nowhere, and its record is unchanged`, async () => {
      const kind = FIELD_KINDS[field.name] ?? "";
      const record = victim.records[kind];
      const write = ATTACKER_WRITES[route.procedure];
      if (!record || !write) throw new Error(`no record or write for ${route.procedure} ${field.path}`);
      const base = write.bodyFor?.[field.path] ?? write.body;
      const send = (id?: string) => {
        const body = id === undefined ? base() : withField(base(), field.path, field.list ? [id] : id);
        return api.request(route.method, pathOf(route), { ...credentialFor(route), body });
      };
      // With the family's own ids (as written) the body is taken: it is valid, and refusals below are the id's.
      const mine = await send();
      expect(route.statuses ?? [route.status], JSON.stringify(mine.body)).toContain(mine.status);

      const before = await readBack(kind, record);
      const nowhere = await send(randomUUID());
      const res = await send(record.id);
      expect(res.status, JSON.stringify(res.body)).toBeGreaterThanOrEqual(400);
      expect(problemWith(route, { status: res.status, contentType: res.headers.get("content-type"), body: res.body })).toBeNull();
      expect({ status: res.status, body: res.body }).toEqual({ status: nowhere.status, body: nowhere.body });
      expect(await readBack(kind, record)).toEqual(before);
    });
  }
});

/** Routes that take a credential, called with an empty body and a random id: access is checked first. */
const guarded = all.filter((route) => route.access.auth !== "public");
function call(route: RouteDef, credential: Credential) {
  const path = route.path.replace(/:[A-Za-z_]+/g, randomUUID());
  return api.request(route.method, path, { ...credential, ...(route.method === "GET" || route.method === "DELETE" ? {} : { body: {} }) });
}

describe("forged, expired and ended credentials", () => {
  const INVALID_TOKEN = { error: "unauthorized", message: "Access token is invalid or expired" };
  const ENDED_SESSION = { error: "unauthorized", message: "The session of this access token has ended" };
  const REVOKED_KEY = { error: "unauthorized", message: "API key is invalid or revoked" };
  const tokens: Record<string, string> = {};
  let revokedKey = "";
  // A user of its own: a forged token the gateway wrongly took could log it out or delete it.
  let forger: TestUser;

  beforeAll(async () => {
    forger = await signUpUser(api, "forger");
    const now = Math.floor(Date.now() / 1000);
    const key = { kid: system.config.JWT_KEY_ID, secret: system.config.JWT_SECRET };
    const claims = decodeJwt(forger.accessToken);
    const victimClaims = decodeJwt(victim.admin.accessToken);
    tokens["a signature bit flipped"] = withFlippedSignatureBit(forger.accessToken);
    // The victim family's admin in the claims, under the forger's own signature.
    tokens["another user's claims under the old signature"] = withForeignClaims(forger.accessToken, {
      sub: victimClaims.sub,
      fam: victimClaims["fam"],
      sid: victimClaims["sid"],
    });
    tokens["its own claims a day longer under the old signature"] = withForeignClaims(forger.accessToken, { exp: (claims.exp ?? now) + 86_400 });
    tokens["alg none"] = unsigned(forger.accessToken);
    tokens["expired a minute ago, signed with the gateway's key"] = await resigned(forger.accessToken, key, { issuedAt: now - 3600, expiresAt: now - 60 });
    tokens["valid, signed with the gateway's key"] = await resigned(forger.accessToken, key, { issuedAt: now - 60, expiresAt: now + 600 });

    const session = await logIn(api, forger.email, undefined, SECOND_DEVICE);
    expect(session.status).toBe(200);
    expect((await api.post("/api/v1/auth/logout", undefined, { token: session.body.access_token })).status).toBe(204);
    tokens["of a logged-out session"] = session.body.access_token;

    const created = await api.post("/api/v1/api_keys", { api_key: { name: "Revoked", scopes: ["read_write"] } }, { token: forger.accessToken });
    expect(created.status).toBe(201);
    expect((await api.get("/api/v1/users/me", { apiKey: created.body.key })).status).toBe(200);
    expect((await api.delete(`/api/v1/api_keys/${created.body.id}`, { token: forger.accessToken })).status).toBe(204);
    revokedKey = created.body.key;
    await answersWithinOneSecond(() => api.get("/api/v1/users/me", { apiKey: revokedKey }), 401);
  });

  it("a token re-signed with the gateway's key for a future expiry is accepted (so the expired one differs only in its expiry)", async () => {
    const res = await api.get("/api/v1/users/me", { token: tokens["valid, signed with the gateway's key"] });
    expect(res.status).toBe(200);
    expect(res.body.user.id).toBe(forger.id);
  });

  const refused: [string, Record<string, string>][] = [
    ["a signature bit flipped", INVALID_TOKEN],
    ["another user's claims under the old signature", INVALID_TOKEN],
    ["its own claims a day longer under the old signature", INVALID_TOKEN],
    ["alg none", INVALID_TOKEN],
    ["expired a minute ago, signed with the gateway's key", INVALID_TOKEN],
    ["of a logged-out session", ENDED_SESSION],
  ];
  it.each(guarded.flatMap((route) => refused.map(([token, body]) => [label(route), token, body, route] as const)))(
    "%s: a bearer token %s is 401",
    async (_name, token, body, route) => {
      const res = await call(route, { token: tokens[token] ?? "" });
      expect(res.status).toBe(401);
      expect(res.body).toEqual(body);
    },
  );

  it.each(guarded.map((route) => [label(route), route] as const))("%s: a revoked API key is 401", async (_name, route) => {
    const res = await call(route, { apiKey: revokedKey });
    expect(res.status).toBe(401);
    expect(res.body).toEqual(REVOKED_KEY);
  });
});
