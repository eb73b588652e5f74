import { counter, histogram } from "./registry";

/**
 * Request latency buckets, in seconds: fine below 10 ms, where the request path is measured
 * (a by-id read aims at 2 ms), coarse up to the 10 s internal-call timeout.
 */
export const LATENCY_BUCKETS = [0.0005, 0.001, 0.002, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];

/**
 * RED of the gateway's HTTP routes. `route` is the route's template (`/api/v1/tags/:id`) or
 * `unmatched`, never the raw URL, so the number of series stays bounded.
 */
export const httpRequestsTotal = counter({
  name: "http_requests_total",
  help: "HTTP requests answered, by method, route template and status",
  labelNames: ["method", "route", "status"] as const,
});

export const httpRequestDuration = histogram({
  name: "http_request_duration_seconds",
  help: "Time from a request's arrival to its last byte sent (or the connection closing), by method and route template",
  labelNames: ["method", "route"] as const,
  buckets: LATENCY_BUCKETS,
  exemplars: true,
});

/** RED of every tRPC procedure a service serves; `code` is the error catalogue's code, or `ok`. */
export const trpcRequestsTotal = counter({
  name: "trpc_requests_total",
  help: "tRPC procedure calls served, by service, procedure and outcome code (ok, or the error catalogue's code)",
  labelNames: ["service", "procedure", "code"] as const,
});

export const trpcRequestDuration = histogram({
  name: "trpc_request_duration_seconds",
  help: "Time a tRPC procedure call took on the service side (middleware, validation and handler), by service and procedure",
  labelNames: ["service", "procedure"] as const,
  buckets: LATENCY_BUCKETS,
  exemplars: true,
});
