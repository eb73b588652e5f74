import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { InMemorySpanExporter, SimpleSpanProcessor, type ReadableSpan } from "@opentelemetry/sdk-trace";
import { startTelemetry, type Telemetry } from "@hearth/service-kit/telemetry";
import { metricsText } from "@hearth/service-kit";
import { describeWithKafka, testPostgresAdminUrl } from "@hearth/test-kit";
import { DEVICE, TEST_PASSWORD, apiClient, eventually, signUpUser, startSystem, type ApiClient, type TestSystem, type TestUser } from "../src";

const exporter = new InMemorySpanExporter();
let telemetry: Telemetry;
let telemetryStopped = false;
/** A stand-in collector: an HTTP server that keeps what arrives at the OTLP traces path. */
let collector: Server;
const received: { path: string; contentType: string | undefined; body: string }[] = [];
let system: TestSystem;
let api: ApiClient;
let user: TestUser;

beforeAll(async () => {
  collector = createServer((req, res) => {
    let body = "";
    req.on("data", (chunk: Buffer) => (body += chunk.toString("utf8")));
    req.on("end", () => {
      received.push({ path: req.url ?? "", contentType: req.headers["content-type"], body });
      res.writeHead(200, { "content-type": "application/json" }).end("{}");
    });
  });
  await new Promise<void>((resolve) => collector.listen(0, "127.0.0.1", resolve));
  const otlpEndpoint = `http://127.0.0.1:${(collector.address() as AddressInfo).port}`;
  telemetry = await startTelemetry({ serviceName: "hearth-system-test", otlpEndpoint, spanProcessors: [new SimpleSpanProcessor({ exporter })] });
  system = await startSystem({ adminUrl: testPostgresAdminUrl() });
  api = apiClient(system.url);
  user = await signUpUser(api, "traced");
});
afterAll(async () => {
  await system?.stop();
  if (!telemetryStopped) await telemetry?.shutdown();
  collector?.close();
});

const byName = (spans: ReadableSpan[], name: string) => spans.filter((span) => span.name === name);
const childrenOf = (spans: ReadableSpan[], parent: ReadableSpan) => spans.filter((span) => span.parentSpanContext?.spanId === parent.spanContext().spanId);

// Before the describe below: its last test shuts telemetry down.
describeWithKafka("one trace from a request to its stored audit event", (brokers) => {
  let kafkaSystem: TestSystem;
  beforeAll(async () => {
    kafkaSystem = await startSystem({ adminUrl: testPostgresAdminUrl(), kafkaBrokers: brokers });
  });
  afterAll(async () => kafkaSystem?.stop());

  it("spans the gateway, its queries, the outbox publish, the Kafka consume and the audit store of a login", async () => {
    const kafkaApi = apiClient(kafkaSystem.url);
    const member = await signUpUser(kafkaApi, "traced-kafka");
    exporter.reset();
    const traceId = "3c1f7a9e5d2b4c6a8e0f1a2b3c4d5e6f";
    const login = await kafkaApi.post(
      "/api/v1/auth/login",
      { email: member.email, password: TEST_PASSWORD, device: DEVICE },
      { headers: { traceparent: `00-${traceId}-a1b2c3d4e5f60718-01` } },
    );
    expect(login.status).toBe(200);

    const spans = await eventually(
      async () => {
        const finished = exporter.getFinishedSpans().filter((span) => span.spanContext().traceId === traceId);
        expect(byName(finished, "audit store").length).toBeGreaterThan(0);
        return finished;
      },
      { timeoutMs: 30_000 },
    );
    const [gatewaySpan] = byName(spans, "POST /api/v1/auth/login");
    expect(gatewaySpan?.parentSpanContext?.spanId).toBe("a1b2c3d4e5f60718");
    expect(childrenOf(spans, gatewaySpan as ReadableSpan).some((span) => span.name.startsWith("prisma:"))).toBe(true);
    // The relay publishes each event in the trace of the request that wrote it...
    const publishes = spans.filter((span) => span.name.endsWith(" publish"));
    expect(publishes.length).toBeGreaterThan(0);
    // ...the audit service consumes it as a child of that publish, and stores it with its own queries.
    const consume = spans.find((span) => span.name.endsWith(" process") && publishes.some((p) => p.spanContext().spanId === span.parentSpanContext?.spanId));
    expect(consume).toBeDefined();
    const [store] = childrenOf(spans, consume as ReadableSpan).filter((span) => span.name === "audit store");
    expect(store).toBeDefined();
    expect(
      spans.some((span) => span.name.startsWith("prisma:") && span.parentSpanContext !== undefined && childrenOf(spans, store as ReadableSpan).includes(span)),
    ).toBe(true);
  });
});

describe("one trace across gateway and finance", () => {
  it("links the gateway span, the tRPC client and server spans and the Prisma spans of GET /api/v1/tags", async () => {
    exporter.reset();
    // The client's own trace context, as an instrumented client would send it.
    const traceId = "4bf92f3577b34da6a3ce929d0e0e4736";
    const res = await api.get("/api/v1/tags", { apiKey: user.readKey, headers: { traceparent: `00-${traceId}-00f067aa0ba902b7-01` } });
    expect(res.status).toBe(200);

    const spans = await eventually(async () => {
      const finished = exporter.getFinishedSpans().filter((span) => span.spanContext().traceId === traceId);
      expect(byName(finished, "GET /api/v1/tags")).toHaveLength(1);
      expect(byName(finished, "trpc.server tags.list")).toHaveLength(1);
      return finished;
    });

    const [gatewaySpan] = byName(spans, "GET /api/v1/tags");
    expect(gatewaySpan?.parentSpanContext?.spanId).toBe("00f067aa0ba902b7");
    const [clientSpan] = byName(spans, "trpc.client finance/tags.list");
    expect(clientSpan?.parentSpanContext?.spanId).toBe(gatewaySpan?.spanContext().spanId);

    // The server span's parent is the client span: only the traceparent header the client sent
    // can have told it (the finance server handles the request on its own socket's context).
    const [serverSpan] = byName(spans, "trpc.server tags.list");
    expect(serverSpan?.parentSpanContext?.spanId).toBe(clientSpan?.spanContext().spanId);
    expect(serverSpan?.parentSpanContext?.isRemote).toBe(true);

    // The request id the client got back is on the gateway's and the service's spans, as it is in their logs.
    const requestId = res.headers.get("x-request-id");
    expect(gatewaySpan?.attributes["hearth.request_id"]).toBe(requestId);
    expect(serverSpan?.attributes["hearth.request_id"]).toBe(requestId);

    const prismaSpans = spans.filter((span) => span.name.startsWith("prisma:"));
    expect(prismaSpans.length).toBeGreaterThan(0);
    expect(childrenOf(spans, serverSpan as ReadableSpan).some((span) => span.name.startsWith("prisma:"))).toBe(true);
  });

  it("puts the request's trace id on the gateway's and finance's duration buckets as their exemplar", async () => {
    const traceId = "7d3a1e9b2c4f6a8d0e1f2a3b4c5d6e7f";
    const res = await api.get("/api/v1/tags", { apiKey: user.readKey, headers: { traceparent: `00-${traceId}-1a2b3c4d5e6f7081-01` } });
    expect(res.status).toBe(200);
    // The system runs in this process: one registry, what either port's /metrics serves. The
    // gateway observes when the response has closed, which may be just after the client has it.
    await eventually(async () => {
      const lines = (await metricsText()).body.split("\n").filter((line) => line.includes(`# {trace_id="${traceId}"}`));
      expect(lines.some((line) => line.startsWith("http_request_duration_seconds_bucket{") && line.includes('route="/api/v1/tags"'))).toBe(true);
      expect(lines.some((line) => line.startsWith("trpc_request_duration_seconds_bucket{") && line.includes('procedure="tags.list"'))).toBe(true);
    });
  });

  it("starts a fresh trace when the client sends none, still spanning both services", async () => {
    exporter.reset();
    const res = await api.get("/api/v1/tags", { apiKey: user.readKey });
    expect(res.status).toBe(200);
    await eventually(async () => {
      const spans = exporter.getFinishedSpans();
      const [gatewaySpan] = byName(spans, "GET /api/v1/tags");
      const [serverSpan] = byName(spans, "trpc.server tags.list");
      expect(gatewaySpan).toBeDefined();
      expect(gatewaySpan?.parentSpanContext).toBeUndefined();
      expect(serverSpan?.spanContext().traceId).toBe(gatewaySpan?.spanContext().traceId);
    });
  });

  it("carries the trace context of a login into its outbox events", async () => {
    const traceId = "0af7651916cd43dd8448eb211c80319c";
    const login = await api.post(
      "/api/v1/auth/login",
      { email: user.email, password: "Correct-horse-9", device: { device_id: "d", device_name: "n", device_type: "ios", os_version: "1", app_version: "1" } },
      { headers: { traceparent: `00-${traceId}-b7ad6b7169203331-01` } },
    );
    expect(login.status).toBe(200);
    const rows = await system.db.gateway.outboxEvent.findMany({ orderBy: { id: "desc" }, take: 2 });
    for (const row of rows) expect((row.headers as Record<string, string>).traceparent).toMatch(new RegExp(`^00-${traceId}-[0-9a-f]{16}-01$`));
  });

  it("exports the trace over OTLP/HTTP when an endpoint is configured", async () => {
    const traceId = "5b8aa5a2d2c872e8321cf37308d69df2";
    expect((await api.get("/api/v1/tags", { apiKey: user.readKey, headers: { traceparent: `00-${traceId}-5fb397be34d26b51-01` } })).status).toBe(200);
    // Shutting telemetry down flushes the batch processor to the collector.
    telemetryStopped = true;
    await telemetry.shutdown();
    const traces = received.filter((request) => request.path === "/v1/traces");
    expect(traces.length).toBeGreaterThan(0);
    const exported = traces.map((request) => request.body).join("\n");
    expect(exported).toContain(traceId);
    for (const name of ["GET /api/v1/tags", "trpc.client finance/tags.list", "trpc.server tags.list"]) expect(exported).toContain(name);
    expect(exported).toMatch(/prisma:/);
  });
});
