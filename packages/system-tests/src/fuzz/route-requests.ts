import fc from "fast-check";
import { z } from "zod";
import { ERROR_CATALOGUE, ErrorBodySchema, type RouteDef } from "@hearth/contracts";
import type { FuzzFamily } from "./fuzz-family";
import { applyMutations, mutation, nastyKey, nastyValue, NASTY_STRINGS, textMutation } from "./mutations";
import { arbitraryOf, type FieldHints, type JsonSchema } from "./schema-arbitrary";

/** One generated HTTP request, as printed in a counterexample. */
export interface FuzzRequest {
  method: string;
  path: string;
  query: [string, string][];
  /** A JSON value to send, or raw text (malformed or deeply nested JSON). */
  body: { json: unknown } | { raw: string } | null;
  credential: "api_key" | "bearer" | "none";
}

export interface FuzzAnswer {
  status: number;
  contentType: string | null;
  body: unknown;
}

function inputSchemaOf(schema: z.ZodType | undefined): JsonSchema | null {
  if (!schema) return null;
  const { $schema: _ignored, ...rest } = z.toJSONSchema(schema, { io: "input", unrepresentable: "any" }) as JsonSchema & { $schema?: string };
  return rest;
}

const amount = fc.oneof(
  fc.integer({ min: -100_000_00, max: 100_000_00 }).map((cents) => (cents / 100).toFixed(2)),
  fc.constantFrom("0", "1", "-0.01", "1,234.56", "12.345", "1e3", "0.0000001"),
  fc.integer({ min: -100_000, max: 100_000 }),
);
const AMOUNT_FIELDS = new Set(["amount", "balance", "rate", "destination_amount", "source_fee", "destination_fee", "min_amount", "max_amount"]);

/** Field-name hints: ids of the family's records, amounts, currencies, so requests reach the services. */
export function hintsFor(family: FuzzFamily): FieldHints {
  const idsOf = (kind: string) => {
    const ids = family.ids[kind];
    return ids ? [...ids.stable, ...ids.disposable] : [];
  };
  const oneOf = (kind: string) => {
    const ids = idsOf(kind);
    return ids.length ? fc.constantFrom(...ids) : undefined;
  };
  const listOf = (kind: string) => {
    const ids = idsOf(kind);
    return ids.length ? fc.subarray(ids) : undefined;
  };
  return (field) => {
    if (AMOUNT_FIELDS.has(field)) return amount;
    if (field === "currency" || field === "from" || field === "to") return fc.constantFrom("USD", "EUR", "usd", "GBP", "JPY", "XXX", "BTC");
    if (field === "email") return fc.oneof(fc.emailAddress(), fc.constant(family.admin.email));
    if (field === "account_id" || field === "from_account_id" || field === "to_account_id") return oneOf("accounts");
    if (field === "account_ids") return listOf("accounts");
    if (field === "category_id" || field === "parent_id") return oneOf("categories");
    if (field === "category_ids") return listOf("categories");
    if (field === "merchant_id") return oneOf("merchants");
    if (field === "merchant_ids") return listOf("merchants");
    if (field === "tag_ids") return listOf("tags");
    if (field === "userId") return fc.constantFrom(family.admin.id, family.memberId);
    if (field === "redirect_uri") return fc.constantFrom("hearth://oauth/callback", "sureapp://oauth/callback", "https://evil.example/");
    if (field === "timezone") return fc.constantFrom("UTC", "Europe/Berlin", "America/New_York", "Nowhere/Nope");
    if (field === "locale") return fc.constantFrom("en", "en-US", "de-DE", "xx-YY");
    return undefined;
  };
}

/** Path ids: a record of that kind (a disposable one for DELETE), a random UUID, or no id at all. */
function pathOf(route: RouteDef, family: FuzzFamily): fc.Arbitrary<string> {
  const segments = route.path.split("/");
  const at = segments.findIndex((segment) => segment.startsWith(":"));
  if (at < 0) return fc.constant(route.path);
  const ids = family.ids[segments[at - 1] ?? ""];
  const real = ids ? (route.method === "DELETE" ? ids.disposable : ids.stable) : [];
  const badIds = fc.oneof(
    fc.constantFrom("not-a-uuid", "0", "-1", "1e300", "%", "%ZZ", "%00", "%ED%A0%80", "..", "%2e%2e", "00000000-0000-0000-0000-000000000000", "x".repeat(5000)),
    fc.string({ maxLength: 40 }).map(encodeURIComponent),
  );
  const id = fc.oneof(
    { weight: real.length ? 4 : 0, arbitrary: real.length ? fc.constantFrom(...real) : fc.uuid() },
    { weight: 2, arbitrary: fc.uuid() },
    { weight: 2, arbitrary: badIds },
  );
  return id.map((value) => segments.map((segment, i) => (i === at ? value : segment)).join("/"));
}

/**
 * The encoded query is kept under this: Node refuses a request line past its 16 KB header limit
 * with a bare 431 before the gateway sees it (found when this fuzzing of every route was written).
 */
const MAX_ENCODED_QUERY = 8_000;

/** A query value as a client writes it: strings, booleans and numbers as text; arrays repeat the key. */
function queryPairs(query: unknown): [string, string][] {
  const text = (item: unknown) => (typeof item === "string" ? item : (JSON.stringify(item) ?? ""));
  const all: [string, string][] = [];
  if (query === null || typeof query !== "object" || Array.isArray(query)) all.push(["q", text(query)]);
  else for (const [key, value] of Object.entries(query)) for (const item of Array.isArray(value) ? value : [value]) all.push([key, text(item)]);
  const pairs: [string, string][] = [];
  let budget = MAX_ENCODED_QUERY;
  for (const [key, value] of all) {
    let pair: [string, string] = [key.slice(0, 200), value];
    // Percent-encoding makes a character up to 9 long; cut until the pair fits what is left.
    while (new URLSearchParams([pair]).toString().length > budget && pair[1].length > 0) pair = [pair[0], pair[1].slice(0, Math.floor(pair[1].length / 2))];
    const size = new URLSearchParams([pair]).toString().length + 1;
    if (size > budget) break;
    budget -= size;
    pairs.push(pair);
  }
  return pairs;
}

const deepJson = fc.integer({ min: 1_000, max: 200_000 }).map((depth) => "[".repeat(depth) + "]".repeat(depth));
const rawBody = fc.oneof(
  deepJson.map((deep) => `{"a":${deep}}`),
  deepJson,
  fc.constantFrom("{", '{"a":', "nul", "[1,]", '"\\ud800"', '{"\\ud800":1}', "1e999999", '{"a":1e999999}', "\u0000", "{}".repeat(1000)),
);

/** Requests for one route: its inputs generated from its schemas, then (mostly) mutated. */
export function requestsFor(route: RouteDef, family: FuzzFamily): fc.Arbitrary<FuzzRequest> {
  const hints = hintsFor(family);
  const querySchema = inputSchemaOf(route.query);
  const bodySchema = inputSchemaOf(route.body);
  const credential: fc.Arbitrary<FuzzRequest["credential"]> =
    route.access.auth === "public" ? fc.constant("none") : route.access.auth === "bearer" ? fc.constant("bearer") : fc.constantFrom("api_key", "bearer");

  // Even a route without a query or body gets some: ignored, or refused with a 4xx (an authenticated
  // GET refuses parameters it does not declare), never a 5xx.
  const baseQuery = querySchema ? arbitraryOf(querySchema, hints) : fc.constant({});
  const query = fc.oneof(
    { weight: 2, arbitrary: baseQuery },
    { weight: 4, arbitrary: fc.tuple(baseQuery, fc.array(mutation, { minLength: 1, maxLength: 3 })).map(([value, changes]) => applyMutations(value, changes)) },
    {
      weight: 1,
      arbitrary: fc.dictionary(nastyKey, fc.oneof(fc.constantFrom(...NASTY_STRINGS), fc.array(fc.constantFrom(...NASTY_STRINGS), { maxLength: 3 })), {
        maxKeys: 4,
      }),
    },
  );

  const baseBody = bodySchema ? arbitraryOf(bodySchema, hints) : fc.constant({});
  const body: fc.Arbitrary<FuzzRequest["body"]> = fc.oneof(
    { weight: 2, arbitrary: baseBody.map((json) => ({ json })) },
    // One broken string in an otherwise valid body reaches the database and the events.
    { weight: 3, arbitrary: fc.tuple(baseBody, textMutation).map(([value, change]) => ({ json: applyMutations(value, [change]) })) },
    {
      weight: 3,
      arbitrary: fc.tuple(baseBody, fc.array(mutation, { minLength: 1, maxLength: 3 })).map(([value, changes]) => ({ json: applyMutations(value, changes) })),
    },
    { weight: 1, arbitrary: nastyValue.map((json) => ({ json })) },
    { weight: 1, arbitrary: rawBody.map((raw) => ({ raw })) },
    { weight: route.method === "GET" || route.method === "DELETE" ? 3 : 1, arbitrary: fc.constant(null) },
  );

  return fc.record({
    method: fc.constant(route.method),
    path: pathOf(route, family),
    query: query.map(queryPairs),
    // fetch sends no body with a GET.
    body: route.method === "GET" ? fc.constant(null) : body,
    credential,
  });
}

const ANSWER_TIMEOUT_MS = 15_000;

/** Sends a generated request to the gateway as a client would (redirects are not followed). */
export async function send(baseUrl: string, request: FuzzRequest, family: FuzzFamily): Promise<FuzzAnswer> {
  const headers: Record<string, string> = { accept: "application/json" };
  if (request.credential === "api_key") headers["x-api-key"] = family.admin.writeKey;
  if (request.credential === "bearer") headers.authorization = `Bearer ${family.admin.accessToken}`;
  let payload: string | undefined;
  if (request.body) {
    headers["content-type"] = "application/json";
    payload = "raw" in request.body ? request.body.raw : JSON.stringify(request.body.json);
  }
  const search = request.query.length ? `?${new URLSearchParams(request.query)}` : "";
  const response = await fetch(`${baseUrl}${request.path}${search}`, {
    method: request.method,
    headers,
    body: payload,
    redirect: "manual",
    // A request that hangs is a failure with its counterexample, not a test timeout.
    signal: AbortSignal.timeout(ANSWER_TIMEOUT_MS),
  });
  const contentType = response.headers.get("content-type");
  const text = await response.text();
  let body: unknown = text;
  if (contentType?.includes("json") && text) body = JSON.parse(text);
  return { status: response.status, contentType, body };
}

/**
 * Routes that call the family's OIDC issuer. The fuzz points issuers at a port where nothing
 * listens, so their designed answer to "the provider cannot be reached" (503) is allowed.
 */
const CALLS_THE_ISSUER = new Set(["ssoProviders.test", "sso.authorize", "sso.callback"]);

/** Why an answer breaks the rules (no 5xx; every 4xx is the spec's error body with its catalogue status), or null. */
export function problemWith(route: RouteDef, answer: FuzzAnswer): string | null {
  const unreachableIssuer =
    answer.status === 503 && CALLS_THE_ISSUER.has(route.procedure) && (answer.body as { error?: unknown }).error === "service_unavailable";
  if (answer.status >= 500 && !unreachableIssuer) return `answered ${answer.status}: ${JSON.stringify(answer.body)}`;
  if (answer.status < 400) return null;
  const parsed = ErrorBodySchema.safeParse(answer.body);
  if (!parsed.success || !answer.contentType?.includes("application/json"))
    return `answered ${answer.status} without the error body: ${JSON.stringify(answer.body)}`;
  // The auth endpoints answer Sure's sentence in `error` and the catalogue code in `code`.
  const { code } = answer.body as { code?: unknown };
  const error = typeof code === "string" ? code : parsed.data.error;
  const entry = ERROR_CATALOGUE[error as keyof typeof ERROR_CATALOGUE];
  if (entry?.status !== answer.status) return `answered ${answer.status} with error "${error}", which the catalogue gives ${entry?.status ?? "no"} status`;
  return null;
}
