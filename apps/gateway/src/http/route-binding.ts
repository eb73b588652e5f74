import { createHash } from "node:crypto";
import { SpanKind, SpanStatusCode, context, propagation, trace } from "@opentelemetry/api";
import { AppError, methodsOf, routes, type Actor, type HttpMethod, type RouteAccess, type RouteDef, type ServiceName } from "@hearth/contracts";
import type { Logger, ServiceCall } from "@hearth/service-kit";
import type { Request, Response, Router } from "express";
import { assertIdempotencyKey, type IdempotentRequests } from "../idempotency/idempotent-requests";
import { authorize } from "../identity/auth/authenticator";
import type { LocalHandlers, RequestFacts } from "../identity/local-handlers";
import type { AiSwitch } from "./ai-switch";
import { readCsvUpload } from "./csv-upload";
import { readFileUpload } from "./file-upload";
import { assertAlreadyText } from "./upload-text";
import { hasEmptyBody, isMultipart } from "./json-only";
import { createLargeUploads, type LargeUploadOptions, type LargeUploads } from "./large-uploads";
import { familyRateLimitBucket, rateLimitBucket, rateLimitExceeded, rateLimitHeaders, type RateLimiter } from "./rate-limiter";
import { exemplifyRequest } from "./metrics";
import { parseRouteInput } from "./request-input";
import { sureNamed } from "./sure-errors";

export interface RouteBindingDeps {
  authenticate: (credentials: { apiKey: string | undefined; authorization: string | undefined }, request: RequestFacts) => Promise<Actor>;
  local: LocalHandlers;
  services: Record<ServiceName, ServiceCall>;
  /** The same services with a longer timeout: an idempotent request's run goes on after its answer is late (see idempotent-requests). */
  patientServices: Record<ServiceName, ServiceCall>;
  rateLimiter: RateLimiter;
  idempotency: IdempotentRequests;
  /** Throws 403 `feature_disabled` unless the user and their family have AI on: read live for each assistant request (routes with `access.ai`). */
  assertAiEnabled: AiSwitch;
  /** How large uploads take turns (large-uploads.ts); DEFAULT_LARGE_UPLOADS when left out. */
  largeUploads?: LargeUploadOptions;
}

/** What a route answers: its status and JSON body (none for 204; `{ location }` for a redirect). */
interface Answer {
  status: number;
  body: unknown;
}

const tracer = trace.getTracer("@hearth/gateway");

export function requestFacts(req: Request, res: Response): RequestFacts {
  return {
    ipAddress: req.ip ?? null,
    userAgent: req.get("user-agent") ?? null,
    requestId: res.locals["requestId"] as string,
    baseUrl: `${req.protocol}://${req.get("host") ?? "localhost"}`,
  };
}

const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");

/** The routes taking a file, each with its path as a pattern (built from the route table's constants, `:id` as one segment). */
const uploadRoutes = (Object.values(routes) as RouteDef[])
  .filter((route) => route.upload || route.fileUpload)
  .map((route) => ({
    route,
    pattern: new RegExp(
      `^${route.path
        .split("/")
        .map((segment) => (segment.startsWith(":") ? "[^/]+" : escapeRegExp(segment)))
        .join("/")}/?$`,
      "i",
    ),
  }));

/** The route taking a file that this request is for, if any. */
export function uploadRouteOf(req: Request): RouteDef | undefined {
  return uploadRoutes.find(({ route, pattern }) => route.method === req.method && pattern.test(req.path))?.route;
}

/** A multipart request to a route that takes a CSV upload or a file (jsonOnly lets these through). */
export function takesUpload(req: Request): boolean {
  return uploadRouteOf(req) !== undefined;
}

/**
 * Mounts every route of the contracts' table: authenticate, check kind/scope/role, validate,
 * then serve locally or forward to the owning service over tRPC. Nothing here is per-route.
 * A PATCH route answers PUT too (methodsOf). An upload route shares its method and path with a
 * JSON route: it is mounted first and serves multipart and bodiless requests, passing on the rest.
 */
export function bindRoutes(router: Router, deps: RouteBindingDeps): void {
  const table = Object.values(routes) as RouteDef[];
  const largeUploads = createLargeUploads(deps.largeUploads);
  for (const route of [...table.filter((r) => r.upload), ...table.filter((r) => !r.upload)]) {
    for (const method of methodsOf(route)) {
      router[method.toLowerCase() as Lowercase<HttpMethod>](route.path, async (req, res, next) => {
        if (route.upload && !isMultipart(req) && !hasEmptyBody(req)) {
          next();
          return;
        }
        await traced(route, method, req, res, deps, largeUploads);
      });
    }
  }
}

async function traced(route: RouteDef, method: HttpMethod, req: Request, res: Response, deps: RouteBindingDeps, largeUploads: LargeUploads): Promise<void> {
  const parent = propagation.extract(context.active(), req.headers);
  await tracer.startActiveSpan(
    `${method} ${route.path}`,
    {
      kind: SpanKind.SERVER,
      attributes: { "http.request.method": method, "http.route": route.path, "hearth.request_id": res.locals["requestId"] as string },
    },
    parent,
    async (span) => {
      exemplifyRequest(res, span);
      try {
        const answer = await serve(route, req, res, deps, largeUploads);
        span.setAttribute("http.response.status_code", answer.status);
        if (answer.status === 302) res.redirect(302, (answer.body as { location: string }).location);
        else if (answer.body === undefined || answer.body === null) res.status(answer.status).end();
        else res.status(answer.status).json(answer.body);
      } catch (caught) {
        const err = sureNamed(route, caught);
        const status = err instanceof AppError ? err.status : 500;
        span.setAttribute("http.response.status_code", status);
        if (status >= 500) span.setStatus({ code: SpanStatusCode.ERROR });
        throw err;
      } finally {
        span.end();
      }
    },
  );
}

/**
 * The body of a route taking a file (a CSV's rows, a file's text and the form's fields, or its
 * large JSON), read only now, after the credential was checked (an anonymous client cannot make
 * the gateway read 26 MB); a large one is received in one of its family's places and parsed at
 * its turn (large-uploads.ts). Undefined for other routes.
 */
async function uploadedBody(route: RouteDef, req: Request, res: Response, actor: Actor | null, largeUploads: LargeUploads): Promise<unknown> {
  const { upload, fileUpload } = route;
  if (!upload && !fileUpload) return undefined;
  return largeUploads.receive(req, res, actor?.familyId ?? null, async () => {
    if (upload) return { value: await readCsvUpload(req, upload) };
    if (fileUpload && isMultipart(req)) return { value: await readFileUpload(req, fileUpload) };
    if (fileUpload && !hasEmptyBody(req)) return largeUploads.receiveJson(req, res, fileUpload.jsonLimitBytes);
    return { value: undefined };
  });
}

function answerOf(route: RouteDef, output: unknown): Answer {
  if (route.statuses) return output as Answer;
  return { status: route.status, body: route.response === null ? null : output };
}

/** Same route and same validated input (path, query and body): the same request, whatever its JSON's spacing or key order. */
function requestHashOf(route: RouteDef, input: unknown): string {
  return createHash("sha256")
    .update(`${route.method} ${route.path}\n${JSON.stringify(input) ?? ""}`)
    .digest("hex");
}

/**
 * The acting user of a request to a route with `access` (not public): the credential checked,
 * counted against its rate limit, AI turned on where the route needs it, kind/scope/role checked.
 */
export async function authenticatedActor(access: RouteAccess, req: Request, res: Response, deps: RouteBindingDeps): Promise<Actor> {
  const actor = await deps.authenticate({ apiKey: req.get("x-api-key"), authorization: req.get("authorization") }, requestFacts(req, res));
  // Counted per credential (an API key, or a user's bearer tokens) before any other work, then
  // against the family's ceiling; the headers tell of whichever has less left.
  const usage = await deps.rateLimiter.consume(rateLimitBucket(actor));
  if (usage.current > usage.limit) {
    res.set(rateLimitHeaders(usage));
    throw rateLimitExceeded(usage);
  }
  const family = await deps.rateLimiter.consume(familyRateLimitBucket(actor));
  res.set(rateLimitHeaders(family.remaining < usage.remaining ? family : usage));
  if (family.current > family.limit) throw rateLimitExceeded(family, "family");
  // Before the scope check, as Sure's require_ai_enabled runs before its scope filters.
  if (access.ai) await deps.assertAiEnabled(actor, res.locals["requestId"] as string);
  authorize(actor, access);
  res.locals["log"] = (res.locals["log"] as Logger).child({ user_id: actor.userId, family_id: actor.familyId });
  return actor;
}

/** The credential of `actor`, checked again now (no request counted twice): the same user and family, still allowed the route. */
async function stillActing(actor: Actor, access: RouteAccess, req: Request, res: Response, deps: RouteBindingDeps): Promise<Actor> {
  const now = await deps.authenticate({ apiKey: req.get("x-api-key"), authorization: req.get("authorization") }, requestFacts(req, res));
  if (now.userId !== actor.userId || now.familyId !== actor.familyId) throw new AppError("unauthorized");
  authorize(now, access);
  return now;
}

async function serve(route: RouteDef, req: Request, res: Response, deps: RouteBindingDeps, largeUploads: LargeUploads): Promise<Answer> {
  const request = requestFacts(req, res);
  let actor = route.access.auth === "public" ? null : await authenticatedActor(route.access, req, res, deps);
  // Read only after the credential is checked: an unauthenticated upload is never parsed.
  const body = await uploadedBody(route, req, res, actor, largeUploads);
  if (route.fileUpload?.encodings && !isMultipart(req)) assertAlreadyText(body);
  // A large upload arrives at its client's pace (minutes on a slow link): its credential is
  // checked again once it has, so a key revoked or a user demoted meanwhile does not write with it.
  if (actor && (route.upload || route.fileUpload) && largeUploads.isLarge(req)) actor = await stillActing(actor, route.access, req, res, deps);
  const input = parseRouteInput(route, req, body);
  const execute = async (services: Record<ServiceName, ServiceCall>): Promise<Answer> => {
    if (route.owner === "gateway") {
      const handler = (deps.local as unknown as Record<string, (opts: unknown) => Promise<unknown>>)[route.procedure];
      if (!handler) throw new Error(`No gateway handler for ${route.procedure}`);
      return answerOf(route, await handler({ actor, input, request }));
    }
    const call = services[route.owner];
    const kind = route.method === "GET" ? "query" : "mutation";
    const sent = kind === "mutation" && (route.upload || route.fileUpload) ? await largeUploads.forwarded(req, input) : input;
    return answerOf(route, await call(route.procedure, kind, sent, { requestId: request.requestId, actor }));
  };
  const idempotencyKey = req.get("idempotency-key");
  // POSTs to the services create: a retry after a timeout must not create twice. Other methods are
  // idempotent by nature; the gateway's own POSTs (API keys, invitations, MFA, sessions) answer secrets
  // that must not be stored for replay, and run in its own database, where no timeout leaves them in doubt.
  if (idempotencyKey === undefined || route.method !== "POST" || !actor || route.owner === "gateway") return execute(deps.services);
  assertIdempotencyKey(idempotencyKey);
  const outcome = await deps.idempotency.run(rateLimitBucket(actor), idempotencyKey, requestHashOf(route, input), () => execute(deps.patientServices));
  if (outcome.replayed) res.set("Idempotent-Replayed", "true");
  return outcome.answer;
}
