import type { IncomingMessage, ServerResponse } from "node:http";
import { hasMetricsToken } from "./access";
import { metricsText } from "./registry";

/**
 * `GET /metrics` of a service's internal server: open on the internal network when no token is
 * configured, otherwise only with `Authorization: Bearer <token>` (401 without it).
 */
export function serveMetrics(req: IncomingMessage, res: ServerResponse, token: string | undefined): void {
  if (token !== undefined && !hasMetricsToken(req.headers.authorization, token)) {
    res
      .writeHead(401, { "content-type": "application/json", "www-authenticate": 'Bearer realm="metrics"' })
      .end(JSON.stringify({ error: "unauthorized", message: "A valid metrics token is required" }));
    return;
  }
  metricsText().then(
    ({ contentType, body }) => res.writeHead(200, { "content-type": contentType, "cache-control": "no-store" }).end(body),
    () =>
      res
        .writeHead(500, { "content-type": "application/json" })
        .end(JSON.stringify({ error: "internal_server_error", message: "Metrics could not be collected" })),
  );
}
