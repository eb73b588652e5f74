import express, { type Express } from "express";
import helmet from "helmet";
import { pinoHttp } from "pino-http";
import { metricsTokenOf, type Logger } from "@hearth/service-kit";
import type { DependencyStatus } from "../health/dependency-status";
import type { GatewayReadinessCheck } from "../health/gateway-readiness";
import { errorHandler, notFound } from "./errors";
import { jsonOnly } from "./json-only";
import { requestId } from "./request-id";
import { bindRoutes, takesUpload, uploadRouteOf, type RouteBindingDeps } from "./route-binding";
import { mountDocs } from "./docs";
import { mountActorStanding, type ActorStandingDeps } from "./actor-standing-endpoint";
import { mountExportFile } from "./export-file";
import { mountMessageStream } from "./message-stream";
import { mcpEndpoint } from "../mcp/mcp-endpoint";
import type { DownloadLinks } from "../family-data/export-download-links";
import { loggableUrl } from "./log-url";
import { mountMetrics } from "./metrics";
import { mountSignInPage } from "./sign-in-page";

export interface GatewayAppDeps extends RouteBindingDeps {
  log: Logger;
  bodyLimit: string;
  trustProxy: number;
  /** The gateway's own readiness (its database; draining on SIGTERM). */
  readiness: GatewayReadinessCheck;
  /** Each internal service's readiness, for operators. */
  dependencies: DependencyStatus;
  /** Bearer token of `GET /metrics` (METRICS_TOKEN); when left out, METRICS_TOKEN from the environment; none: /metrics is 404. */
  metricsToken?: string | undefined;
  /** Signs and checks the links /api/v1/family_exports/:id/download redirects to. */
  downloadLinks: DownloadLinks;
  /** Whether a link's credential still grants its family's exports (ExportLinkQueries). */
  downloadGrantorStillAdmits: (bucket: string, familyId: string) => Promise<boolean>;
  /** Services asking whether an actor still holds (the assistant's answers); an open answer stream asks it too. */
  actorStanding: ActorStandingDeps;
  /** How often an open answer stream reads its credential again (STREAM_RECHECK_MS unless a test shortens it). */
  streamRecheckMs?: number;
}

/** The public HTTP face of Hearth: JSON only, every /api/v1 route from the contracts' table. */
export function createGatewayApp(deps: GatewayAppDeps): Express {
  const app = express();
  app.disable("x-powered-by");
  app.set("trust proxy", deps.trustProxy);
  app.set("query parser", "simple");
  app.use(requestId);
  // Before logging and every route: scrapes are neither logged nor counted, and every request after is timed.
  mountMetrics(app, metricsTokenOf(deps));
  app.use(
    pinoHttp({
      logger: deps.log,
      genReqId: (_req, res) => res.getHeader("X-Request-Id") as string,
      customProps: (_req, res) => ({ request_id: res.getHeader("X-Request-Id") }),
      serializers: {
        req: (req: { method: string; url: string }) => ({ method: req.method, url: loggableUrl(req.url) }),
        res: (res: { statusCode: number }) => ({ statusCode: res.statusCode }),
      },
    }),
  );
  app.use((req, res, next) => {
    res.locals["log"] = req.log;
    next();
  });
  app.use(helmet());
  app.use(jsonOnly(takesUpload));
  // Routes taking a whole file as JSON text (imports) read their larger bodies themselves, after the
  // credential is checked (route-binding); the general limit applies to every other body.
  const json = express.json({ limit: deps.bodyLimit, strict: true, type: ["application/json", "application/*+json"] });
  app.use((req, res, next) => (uploadRouteOf(req)?.fileUpload ? next() : json(req, res, next)));

  app.get("/health", (_req, res) => {
    res.json({ status: "ok" });
  });
  app.get("/ready", async (_req, res) => {
    const readiness = await deps.readiness.check();
    res.status(readiness.ready ? 200 : 503).json(readiness.body);
  });
  // Always 200 when the gateway answers: a service being down is reported, not a gateway failure.
  app.get("/health/dependencies", async (_req, res) => {
    res.json(await deps.dependencies());
  });
  mountDocs(app);
  mountSignInPage(app);
  mountActorStanding(app, deps.actorStanding);
  mountExportFile(app, deps.services.finance, deps.downloadLinks, deps.rateLimiter, deps.downloadGrantorStillAdmits);
  mountMessageStream(app, {
    ...deps,
    standingOf: deps.actorStanding.standingOf,
    ...(deps.streamRecheckMs !== undefined && { recheckMs: deps.streamRecheckMs }),
  });
  app.all("/mcp", mcpEndpoint(deps));

  const api = express.Router();
  bindRoutes(api, deps);
  app.use(api);

  app.use(notFound);
  app.use(errorHandler(deps.log));
  return app;
}
