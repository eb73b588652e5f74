import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import { ROOT_CONTEXT, propagation } from "@opentelemetry/api";
import { createHTTPHandler } from "@trpc/server/adapters/standalone";
import type { AnyRouter } from "@trpc/server";
import type { Logger } from "pino";
import { INTERNAL_AUTH_HEADER, createInternalVerifier } from "../internal-auth";
import { metricsTokenOf } from "../metrics/access";
import { serveMetrics } from "../metrics/endpoint";
import { initMetrics } from "../metrics/registry";
import type { ServiceContext } from "./server";
import { createLargeBodyGate, type LargeBodyGateOptions } from "./large-body-gate";
import { preparsedInputOf, readLargeJsonBody } from "./large-body-input";
import { OffThreadJson } from "./off-thread-json";

export interface ServiceServerOptions {
  service: string;
  router: AnyRouter;
  log: Logger;
  internalAuthSecret: string;
  /** Resolves when the service can do its work (database reachable); throws otherwise. */
  readiness: () => Promise<void>;
  /**
   * Bearer token `GET /metrics` requires; when the option is left out, METRICS_TOKEN from the
   * environment. Without one, /metrics is open on the internal port (which is not public).
   */
  metricsToken?: string | undefined;
  /** Largest request body taken (default 1 MiB); finance takes imports' files, up to 10 MB of text escaped as JSON. */
  maxBodyBytes?: number;
  /** Requests with large bodies take turns (large-body-gate.ts); none by default. Over maxBodyBytes they skip the line. */
  largeBodies?: Omit<LargeBodyGateOptions, "maxBodyBytes">;
}

/** What every service is built from: its own database, the process logger, the internal-auth secret. */
export interface ServiceDeps<Db> {
  db: Db;
  log: Logger;
  internalAuthSecret: string;
}

/** The usual readiness check: the service's own database answers. */
export function databaseReadiness(db: { $queryRaw: (query: TemplateStringsArray) => PromiseLike<unknown> }): () => Promise<void> {
  return async () => {
    await db.$queryRaw`SELECT 1`;
  };
}

export interface RunningServer {
  server: Server;
  url: string;
  close: (graceMs?: number) => Promise<void>;
}

/**
 * The internal HTTP server of a service: tRPC under /trpc (batching off: one call per
 * request bounds the work a single request can ask for), plus /health, /ready and /metrics
 * (Prometheus' text format).
 */
export function createServiceServer(options: ServiceServerOptions): Server {
  initMetrics(options.service);
  const metricsToken = metricsTokenOf(options);
  const verify = createInternalVerifier(options.internalAuthSecret, options.service);
  const maxBodyBytes = options.maxBodyBytes ?? 1024 * 1024;
  const trpcHandler = createHTTPHandler({
    router: options.router,
    basePath: "/trpc/",
    allowBatching: false,
    maxBodySize: maxBodyBytes,
    async createContext({ req }): Promise<ServiceContext> {
      return {
        service: options.service,
        log: options.log,
        internal: await verifiedContext(req, verify),
        traceContext: propagation.extract(ROOT_CONTEXT, req.headers),
        preparsedInput: preparsedInputOf(req),
      };
    },
  });

  const gate = options.largeBodies ? createLargeBodyGate({ ...options.largeBodies, maxBodyBytes }) : null;
  const json = new OffThreadJson();
  // A large body, at its turn, is parsed off the event loop before tRPC runs.
  const handleGated = (req: IncomingMessage, res: ServerResponse) => (large: boolean) => {
    if (!large || req.method !== "POST") return void trpcHandler(req, res);
    readLargeJsonBody(req, res, { maxBodyBytes, json }, () => void trpcHandler(req, res)).catch((err: unknown) => {
      options.log.error({ err }, "reading a large body failed");
      if (!res.headersSent) res.writeHead(500, { "content-type": "application/json" }).end(JSON.stringify({ error: "internal_server_error" }));
      else res.destroy();
    });
  };
  const server = createServer((req, res) => {
    const path = (req.url ?? "/").split("?")[0];
    if (path === "/health") {
      res.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify({ status: "ok", service: options.service }));
      return;
    }
    if (path === "/ready") {
      options.readiness().then(
        () => res.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify({ status: "ready", service: options.service })),
        (err: unknown) => {
          options.log.warn({ err }, "readiness check failed");
          res.writeHead(503, { "content-type": "application/json" }).end(JSON.stringify({ status: "unavailable", service: options.service }));
        },
      );
      return;
    }
    if (path === "/metrics" && req.method === "GET") {
      serveMetrics(req, res, metricsToken);
      return;
    }
    if (path?.startsWith("/trpc/")) {
      if (gate) gate(req, res, handleGated(req, res));
      else void trpcHandler(req, res);
      return;
    }
    res.writeHead(404, { "content-type": "application/json" }).end(JSON.stringify({ error: "not_found" }));
  });
  server.once("close", () => void json.close());
  return server;
}

async function verifiedContext(req: IncomingMessage, verify: ReturnType<typeof createInternalVerifier>) {
  const token = req.headers[INTERNAL_AUTH_HEADER];
  if (typeof token !== "string") return null;
  try {
    return await verify(token);
  } catch {
    return null;
  }
}

/** Listens on the port (0 = any free port) of 127.0.0.1 or the given host and reports the URL. */
export async function listen(server: Server, port: number, host = "127.0.0.1"): Promise<RunningServer> {
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(port, host, () => resolve());
  });
  const address = server.address();
  const actualPort = typeof address === "object" && address ? address.port : port;
  return {
    server,
    url: `http://${host}:${actualPort}`,
    /**
     * Stops accepting, lets requests in flight finish (up to `graceMs`), then cuts what is left.
     * A client under load never leaves its keep-alive connection idle, so from here on every
     * answer says `Connection: close`, and a connection whose answer was under way is closed as
     * soon as it goes idle; without it the grace always ran out and the cut requests were ones
     * already written (the reliability suite's rolling restart of two gateways).
     */
    close: (graceMs = 5000) =>
      new Promise<void>((resolve) => {
        server.prependListener("request", (_req: IncomingMessage, res: ServerResponse) => {
          if (!res.headersSent) res.setHeader("connection", "close");
        });
        const force = setTimeout(() => server.closeAllConnections(), graceMs);
        force.unref();
        const idle = setInterval(() => server.closeIdleConnections(), 25);
        idle.unref();
        server.close(() => {
          clearTimeout(force);
          clearInterval(idle);
          resolve();
        });
      }),
  };
}
