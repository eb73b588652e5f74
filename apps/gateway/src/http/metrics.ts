import { AppError } from "@hearth/contracts";
import type { Span } from "@opentelemetry/api";
import {
  hasMetricsToken,
  httpRequestDuration,
  httpRequestsTotal,
  initMetrics,
  metricsText,
  startExemplarTimer,
  traceExemplar,
  type TraceExemplar,
} from "@hearth/service-kit";
import type { Express, RequestHandler, Response } from "express";

/** The `route` label of a request no route matched (an unknown path, a static docs asset). */
export const UNMATCHED_ROUTE = "unmatched";

const TIMER = "metricsEndTimer";
const EXEMPLAR = "metricsExemplar";

/**
 * `GET /metrics` on the public port: 404 with the error body unless METRICS_TOKEN is configured,
 * then 401 without `Authorization: Bearer <token>`. Failures go to the error handler, so the body
 * is the spec's; no API key is asked, and nothing here is rate-limited or counted as a route.
 */
export function metricsEndpoint(token: string | undefined): RequestHandler {
  return (req, res, next) => {
    if (token === undefined) {
      next(new AppError("not_found", { message: `No route matches ${req.method} ${req.path}` }));
      return;
    }
    if (!hasMetricsToken(req.get("authorization"), token)) {
      res.set("WWW-Authenticate", 'Bearer realm="metrics"');
      next(new AppError("unauthorized", { message: "A valid metrics token is required" }));
      return;
    }
    metricsText().then(({ contentType, body }) => void res.set("Cache-Control", "no-store").type(contentType).send(body), next);
  };
}

/** Records a finished (or abandoned) request; shared by every response, so nothing is allocated per request for it. */
function recordRequest(this: Response): void {
  const end = this.locals[TIMER] as ((labels: { method: string; route: string }, exemplar: TraceExemplar) => void) | undefined;
  if (!end) return;
  const req = this.req;
  const path: unknown = (req.route as { path?: unknown } | undefined)?.path;
  const route = typeof path === "string" ? path : UNMATCHED_ROUTE;
  const method = req.method;
  end({ method, route }, (this.locals[EXEMPLAR] as TraceExemplar | undefined) ?? {});
  httpRequestsTotal.inc({ method, route, status: this.writableFinished ? String(this.statusCode) : "aborted" });
}

/**
 * RED per route: a request count by method, route template and status, and a duration
 * histogram by method and route template. The template (`/api/v1/tags/:id`) is the route
 * express matched, read when the response is done; a request no route matched is `unmatched`,
 * so the raw URL never becomes a label. The duration's exemplar is the trace of the route's
 * span (see `exemplifyRequest`); a request refused before reaching a route has none.
 */
export const httpMetrics: RequestHandler = (_req, res, next) => {
  res.locals[TIMER] = startExemplarTimer(httpRequestDuration);
  res.on("close", recordRequest);
  next();
};

/** Makes the trace of `span`, the request's server span, the exemplar of its duration. */
export function exemplifyRequest(res: Response, span: Span): void {
  res.locals[EXEMPLAR] = traceExemplar(span);
}

/** Mounts `GET /metrics`, then the RED middleware every later route passes through. */
export function mountMetrics(app: Express, token: string | undefined): void {
  initMetrics("gateway");
  app.get("/metrics", metricsEndpoint(token));
  app.use(httpMetrics);
}
