import { randomUUID } from "node:crypto";
import type { Server } from "node:http";
import pino from "pino";
import { TraceFlags, trace } from "@opentelemetry/api";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { AppError } from "@hearth/contracts";
import { hasMetricsToken, metricsTokenOf } from "../../src/metrics/access";
import { observeJob } from "../../src/metrics/jobs";
import { lagOf } from "../../src/metrics/kafka";
import { histogram, metricsText, scrapedGauge, sharedRead } from "../../src/metrics/registry";
import { startExemplarTimer, traceExemplar } from "../../src/metrics/exemplar";
import { appErrorToTrpc, internalProcedure, t } from "../../src/trpc/server";
import { createServiceClient } from "../../src/trpc/service-client";
import { createServiceServer, listen, type RunningServer } from "../../src/trpc/service-server";
import { metricSample } from "../../src/metrics/text-sample";

const SECRET = "s".repeat(48);
const TOKEN = "metrics-token-0123456789abcdefghijklmnop";
const actor = { userId: randomUUID(), familyId: randomUUID(), role: "admin" as const, scopes: ["read" as const], authMethod: "api_key" as const };

const router = t.router({
  ping: internalProcedure.query(() => "pong"),
  missing: internalProcedure.query(() => {
    throw appErrorToTrpc(AppError.notFound("Tag"));
  }),
});

/** A service server with this metrics token (explicitly none: whatever METRICS_TOKEN the environment holds does not apply). */
function serve(metricsToken: string | undefined): Server {
  return createServiceServer({
    service: "metrics-test",
    router,
    log: pino({ level: "silent" }),
    internalAuthSecret: SECRET,
    readiness: async () => {},
    metricsToken,
  });
}

describe("metrics token", () => {
  it("accepts exactly the configured bearer token", () => {
    expect(hasMetricsToken(`Bearer ${TOKEN}`, TOKEN)).toBe(true);
    expect(hasMetricsToken(`bearer ${TOKEN}`, TOKEN)).toBe(true);
    expect(hasMetricsToken(`Bearer ${TOKEN}x`, TOKEN)).toBe(false);
    expect(hasMetricsToken(`Bearer ${TOKEN.slice(1)}`, TOKEN)).toBe(false);
    expect(hasMetricsToken(TOKEN, TOKEN)).toBe(false);
    expect(hasMetricsToken("Bearer ", TOKEN)).toBe(false);
    expect(hasMetricsToken(undefined, TOKEN)).toBe(false);
  });

  it("is the explicit option when given (even none), else METRICS_TOKEN from the environment", () => {
    const before = process.env.METRICS_TOKEN;
    try {
      process.env.METRICS_TOKEN = TOKEN;
      expect(metricsTokenOf({})).toBe(TOKEN);
      expect(metricsTokenOf({ metricsToken: undefined })).toBeUndefined();
      expect(metricsTokenOf({ metricsToken: "other" })).toBe("other");
      process.env.METRICS_TOKEN = "";
      expect(metricsTokenOf({})).toBeUndefined();
    } finally {
      if (before === undefined) delete process.env.METRICS_TOKEN;
      else process.env.METRICS_TOKEN = before;
    }
  });
});

describe("a service's /metrics", () => {
  let open: RunningServer;
  let guarded: RunningServer;

  beforeAll(async () => {
    open = await listen(serve(undefined), 0);
    guarded = await listen(serve(TOKEN), 0);
  });
  afterAll(async () => {
    await open.close();
    await guarded.close();
  });

  it("counts each procedure call by outcome code and observes its duration", async () => {
    const before = await (await fetch(`${open.url}/metrics`)).text();
    const call = createServiceClient({ service: "metrics-test", url: open.url, caller: "gateway", internalAuthSecret: SECRET });
    await call("ping", "query", undefined, { requestId: "r1", actor });
    await call("ping", "query", undefined, { requestId: "r2", actor });
    await expect(call("missing", "query", undefined, { requestId: "r3", actor })).rejects.toMatchObject({ code: "record_not_found" });
    // No internal token: refused by internalProcedure, counted as unauthorized.
    expect((await fetch(`${open.url}/trpc/ping`)).status).toBe(401);

    const response = await fetch(`${open.url}/metrics`);
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toMatch(/^application\/openmetrics-text; version=1\.0\.0/);
    const text = await response.text();
    const moved = (name: string, labels: Record<string, string>) => (metricSample(text, name, labels) ?? 0) - (metricSample(before, name, labels) ?? 0);
    const ping = { service: "metrics-test", procedure: "ping" };
    expect(moved("trpc_requests_total", { ...ping, code: "ok" })).toBe(2);
    expect(moved("trpc_requests_total", { ...ping, code: "unauthorized" })).toBe(1);
    expect(moved("trpc_requests_total", { service: "metrics-test", procedure: "missing", code: "record_not_found" })).toBe(1);
    expect(moved("trpc_request_duration_seconds_count", ping)).toBe(3);
    expect(moved("trpc_request_duration_seconds_bucket", { ...ping, le: "+Inf" })).toBe(3);
    expect(metricSample(text, "trpc_request_duration_seconds_sum", ping)).toBeGreaterThan(0);
    // The process metrics, event-loop delay included, labelled with the service.
    expect(metricSample(text, "nodejs_eventloop_lag_p99_seconds", { service: "metrics-test" })).toBeGreaterThanOrEqual(0);
  });

  it("is open without a token (internal port), and with one answers 401 unless it is presented", async () => {
    expect((await fetch(`${open.url}/metrics`)).status).toBe(200);
    const missing = await fetch(`${guarded.url}/metrics`);
    expect(missing.status).toBe(401);
    expect(await missing.json()).toEqual({ error: "unauthorized", message: "A valid metrics token is required" });
    expect((await fetch(`${guarded.url}/metrics`, { headers: { authorization: "Bearer wrong" } })).status).toBe(401);
    const ok = await fetch(`${guarded.url}/metrics`, { headers: { authorization: `Bearer ${TOKEN}` } });
    expect(ok.status).toBe(200);
    expect(await ok.text()).toContain("# TYPE trpc_requests counter");
  });
});

describe("exemplars", () => {
  const spanOf = (traceId: string, traceFlags: number) => trace.wrapSpanContext({ traceId, spanId: "00f067aa0ba902b7", traceFlags });

  it("a duration keeps the trace id of a sampled request on its bucket, and none for an unsampled one", async () => {
    const durations = histogram({ name: "unit_exemplar_seconds", help: "test", labelNames: ["route"], buckets: [0.5, 5], exemplars: true });
    const sampled = "4bf92f3577b34da6a3ce929d0e0e4736";
    startExemplarTimer(durations, { route: "/a" })({}, traceExemplar(spanOf(sampled, TraceFlags.SAMPLED)));
    startExemplarTimer(durations, { route: "/b" })({}, traceExemplar(spanOf("0af7651916cd43dd8448eb211c80319c", TraceFlags.NONE)));
    startExemplarTimer(durations, { route: "/c" })({}, traceExemplar(undefined));

    const lines = (await metricsText()).body.split("\n").filter((line) => line.startsWith("unit_exemplar_seconds_bucket"));
    const withExemplar = lines.filter((line) => line.includes(" # {"));
    expect(withExemplar).toHaveLength(1);
    expect(withExemplar[0]).toMatch(new RegExp(`^unit_exemplar_seconds_bucket\\{le="0.5",.*route="/a"\\} 1 # \\{trace_id="${sampled}"\\} [0-9.e-]+ [0-9.]+$`));
    // The value of a line with an exemplar reads as any other.
    expect(metricSample((await metricsText()).body, "unit_exemplar_seconds_bucket", { route: "/a", le: "0.5" })).toBe(1);
    expect(metricSample((await metricsText()).body, "unit_exemplar_seconds_count", { route: "/b" })).toBe(1);
  });

  it("the trace id is left out when the span context is not valid", () => {
    expect(traceExemplar(spanOf("00000000000000000000000000000000", TraceFlags.SAMPLED))).toEqual({});
  });
});

describe("background jobs and scrape-time gauges", () => {
  it("observeJob times each run under its job and outcome, and passes results and errors through", async () => {
    expect(await observeJob("unit_job", async () => 42)).toBe(42);
    await expect(
      observeJob("unit_job", async () => {
        throw new Error("nope");
      }),
    ).rejects.toThrow("nope");
    const { body } = await metricsText();
    expect(metricSample(body, "background_job_duration_seconds_count", { job: "unit_job", outcome: "ok" })).toBe(1);
    expect(metricSample(body, "background_job_duration_seconds_count", { job: "unit_job", outcome: "error" })).toBe(1);
  });

  it("a gauge read at scrape time: its samples, or nothing (and a counted failure) when the read fails or hangs", async () => {
    let mode: "ok" | "fail" | "hang" = "ok";
    scrapedGauge({
      name: "unit_scraped",
      help: "test",
      labelNames: ["kind"] as const,
      timeoutMs: 50,
      collect: async () => {
        if (mode === "fail") throw new Error("database down");
        if (mode === "hang") return new Promise<never>(() => {});
        return [{ labels: { kind: "a" }, value: 7 }];
      },
    });
    expect(metricSample((await metricsText()).body, "unit_scraped", { kind: "a" })).toBe(7);
    mode = "fail";
    expect(metricSample((await metricsText()).body, "unit_scraped", { kind: "a" })).toBeUndefined();
    mode = "hang";
    expect(metricSample((await metricsText()).body, "unit_scraped")).toBeUndefined();
    // The failures are counted as they happen (a scrape shows the ones of the scrapes before it).
    mode = "ok";
    const body = (await metricsText()).body;
    expect(metricSample(body, "unit_scraped", { kind: "a" })).toBe(7);
    expect(metricSample(body, "metrics_collect_failures_total", { gauge: "unit_scraped" })).toBe(2);
  });

  it("sharedRead runs one read for concurrent callers and reuses it briefly", async () => {
    let reads = 0;
    let release: () => void = () => {};
    const read = sharedRead(() => {
      reads++;
      return new Promise<number>((resolve) => (release = () => resolve(reads)));
    }, 60_000);
    const callers = [read(), read(), read()];
    release();
    expect(await Promise.all(callers)).toEqual([1, 1, 1]);
    expect(await read()).toBe(1);
    expect(reads).toBe(1);
  });

  it("a partition's lag is its end offset minus the committed one, or minus its start when nothing is committed", () => {
    expect(lagOf({ high: "120", low: "0" }, "100")).toBe(20);
    expect(lagOf({ high: "120", low: "10" }, "-1")).toBe(110);
    expect(lagOf({ high: "120", low: "10" }, undefined)).toBe(110);
    expect(lagOf({ high: "120", low: "0" }, "120")).toBe(0);
  });
});
