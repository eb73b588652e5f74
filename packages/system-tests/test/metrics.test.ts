import { randomBytes } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { describeWithKafka, testPostgresAdminUrl } from "@hearth/test-kit";
import { apiClient, eventually, signUpUser, startSystem, type ApiClient, type StartSystemOptions, type TestSystem, type TestUser } from "../src";
import { metricSample, metricsRegistry } from "@hearth/service-kit";

const TOKEN = randomBytes(32).toString("hex");

async function scrape(baseUrl: string): Promise<string> {
  const response = await fetch(`${baseUrl}/metrics`, { headers: { authorization: `Bearer ${TOKEN}` } });
  expect(response.status).toBe(200);
  expect(response.headers.get("content-type")).toMatch(/^application\/openmetrics-text/);
  return response.text();
}

/**
 * The whole system with METRICS_TOKEN: the gateway takes it from its config (validated as in
 * production); startSystem builds the services in code, without an environment of their own, so
 * they read it from the process environment, as a deployed service process does.
 */
async function startWithMetrics(options: Partial<StartSystemOptions> = {}): Promise<TestSystem> {
  process.env.METRICS_TOKEN = TOKEN;
  return startSystem({ adminUrl: testPostgresAdminUrl(), ...options, gatewayEnv: { METRICS_TOKEN: TOKEN } });
}

/**
 * Scrape-time reads that failed so far, read off the process's one registry without a scrape.
 * Files share a worker's process, so an earlier file's count is in it too: compare with a start.
 */
async function collectFailures(): Promise<number> {
  const metric = metricsRegistry.getSingleMetric("metrics_collect_failures_total");
  return metric ? (await metric.get()).values.reduce((sum, { value }) => sum + value, 0) : 0;
}

const previousToken = process.env.METRICS_TOKEN;
afterAll(() => {
  if (previousToken === undefined) delete process.env.METRICS_TOKEN;
  else process.env.METRICS_TOKEN = previousToken;
});

describe("metrics of the gateway and the services", () => {
  let system: TestSystem;
  let api: ApiClient;
  let alice: TestUser;
  let failuresAtStart: number;

  beforeAll(async () => {
    failuresAtStart = await collectFailures();
    system = await startWithMetrics();
    api = apiClient(system.url);
    alice = await signUpUser(api, "metrics");
  });
  afterAll(async () => system?.stop());

  it("is refused without the token, on the gateway (the public port) and on a service", async () => {
    const gateway = await fetch(`${system.url}/metrics`, { headers: { "x-api-key": alice.readKey } });
    expect(gateway.status).toBe(401);
    expect(await gateway.json()).toEqual({ error: "unauthorized", message: "A valid metrics token is required" });
    expect((await fetch(`${system.services.finance.url}/metrics`)).status).toBe(401);
  });

  it("counts API calls under their route template on the gateway, and the procedures they reach on finance", async () => {
    const [gatewayBefore, financeBefore] = [await scrape(system.url), await scrape(system.services.finance.url)];
    const created = await api.post("/api/v1/tags", { tag: { name: "Metrics" } }, { apiKey: alice.writeKey });
    expect(created.status).toBe(201);
    const id = created.body.id as string;
    expect((await api.get(`/api/v1/tags/${id}`, { apiKey: alice.readKey })).status).toBe(200);
    expect((await api.get(`/api/v1/tags/${id}`, { apiKey: alice.readKey })).status).toBe(200);
    expect((await api.get("/api/v1/tags/01900000-0000-7000-8000-000000000000", { apiKey: alice.readKey })).status).toBe(404);
    const [gateway, finance] = [await scrape(system.url), await scrape(system.services.finance.url)];

    const moved = (after: string, before: string, name: string, labels: Record<string, string>) =>
      (metricSample(after, name, labels) ?? 0) - (metricSample(before, name, labels) ?? 0);
    const byId = { method: "GET", route: "/api/v1/tags/:id" };
    expect(moved(gateway, gatewayBefore, "http_requests_total", { ...byId, status: "200" })).toBe(2);
    expect(moved(gateway, gatewayBefore, "http_requests_total", { ...byId, status: "404" })).toBe(1);
    expect(moved(gateway, gatewayBefore, "http_requests_total", { method: "POST", route: "/api/v1/tags", status: "201" })).toBe(1);
    expect(moved(gateway, gatewayBefore, "http_request_duration_seconds_count", byId)).toBe(3);
    expect(gateway).not.toContain(id);

    const tagsGet = { service: "finance", procedure: "tags.get" };
    expect(moved(finance, financeBefore, "trpc_requests_total", { ...tagsGet, code: "ok" })).toBe(2);
    expect(moved(finance, financeBefore, "trpc_requests_total", { ...tagsGet, code: "record_not_found" })).toBe(1);
    expect(moved(finance, financeBefore, "trpc_request_duration_seconds_count", tagsGet)).toBe(3);
    expect(moved(finance, financeBefore, "trpc_requests_total", { service: "finance", procedure: "tags.create", code: "ok" })).toBe(1);
  });

  it("reports the outbox (depth, oldest age, published events), the sync queue, sync durations and event-loop delay", async () => {
    const audit = { publisher: "audit-service" };
    const gateway = await eventually(async () => {
      const text = await scrape(system.url);
      // The sign-up's audit events went out through the relay.
      expect(metricSample(text, "outbox_events_published_total", audit)).toBeGreaterThan(0);
      return text;
    });
    expect(metricSample(gateway, "outbox_pending_events", audit)).toBeGreaterThanOrEqual(0);
    expect(metricSample(gateway, "outbox_oldest_pending_age_seconds", audit)).toBeGreaterThanOrEqual(0);
    expect(metricSample(gateway, "outbox_dead_letter_events", audit)).toBe(0);
    expect(metricSample(gateway, "pg_pool_connections", { pool: "outbox_relay", state: "total" })).toBeGreaterThanOrEqual(0);
    expect(metricSample(gateway, "nodejs_eventloop_lag_p99_seconds")).toBeGreaterThanOrEqual(0);

    const account = await api.post("/api/v1/accounts", { account: { name: "Checking", account_type: "depository", balance: 100 } }, { apiKey: alice.writeKey });
    expect(account.status).toBe(201);
    const finance = await eventually(async () => {
      const text = await scrape(system.services.finance.url);
      expect(metricSample(text, "background_job_duration_seconds_count", { job: "balance_materialize", outcome: "ok" })).toBeGreaterThan(0);
      return text;
    });
    expect(metricSample(finance, "finance_sync_queue_depth", { status: "pending" })).toBeGreaterThanOrEqual(0);
    expect(metricSample(finance, "finance_sync_queue_depth", { status: "syncing" })).toBeGreaterThanOrEqual(0);
    expect(metricSample(finance, "finance_sync_queue_oldest_age_seconds", { status: "pending" })).toBeGreaterThanOrEqual(0);
    // No read of this file's scrapes failed or timed out, on finance or the gateway.
    expect(await collectFailures()).toBe(failuresAtStart);
  });
});

describeWithKafka("metrics of the event pipeline through Kafka", (brokers) => {
  let system: TestSystem;
  let api: ApiClient;

  beforeAll(async () => {
    system = await startWithMetrics({ kafkaBrokers: brokers });
    api = apiClient(system.url);
  });
  afterAll(async () => system?.stop());

  it("counts events published to Kafka and consumed by audit, and reports the consumer group's lag per partition", async () => {
    await signUpUser(api, "metrics-kafka");
    const text = await eventually(
      async () => {
        const scraped = await scrape(system.services.audit.url);
        expect(metricSample(scraped, "outbox_events_published_total", { publisher: "kafka" })).toBeGreaterThan(0);
        expect(metricSample(scraped, "kafka_consumer_messages_total", { topic: "hearth.audit.auth" })).toBeGreaterThan(0);
        expect(metricSample(scraped, "kafka_consumer_lag", { topic: "hearth.audit.auth" })).toBeDefined();
        return scraped;
      },
      { timeoutMs: 30_000 },
    );
    // Every partition of the topic has a series, and the audit consumer has caught up with them.
    const partitions = text.split("\n").filter((line) => line.startsWith("kafka_consumer_lag{") && line.includes('topic="hearth.audit.auth"'));
    expect(partitions.length).toBeGreaterThanOrEqual(1);
    await eventually(async () => {
      const scraped = await scrape(system.services.audit.url);
      const lags = scraped.split("\n").filter((line) => line.startsWith("kafka_consumer_lag{") && line.includes('topic="hearth.audit.auth"'));
      expect(lags.map((line) => Number(line.split(" ").at(-1)))).toEqual(lags.map(() => 0));
    });
  });
});
