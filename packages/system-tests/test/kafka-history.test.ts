import { afterAll, expect, it } from "vitest";
import { describeWithKafka, testPostgresAdminUrl } from "@hearth/test-kit";
import { apiClient, eventually, signUpUser, startSystem, type TestSystem } from "../src";

// Every test file starts a system with an audit consumer group of its own. Reading the audit
// topics from their beginning, it had to store all the broker ever held first (a benchmark leaves
// tens of thousands of events), and the tracing test timed out waiting for its one login.
describeWithKafka("a test system's audit consumer and the broker's history", (brokers) => {
  const systems: TestSystem[] = [];
  afterAll(async () => {
    for (const system of systems) await system.stop();
  });

  it("starts at the topics' end: events of earlier systems are not stored again, its own are", async () => {
    const earlier = await startSystem({ adminUrl: testPostgresAdminUrl(), kafkaBrokers: brokers });
    systems.push(earlier);
    const first = await signUpUser(apiClient(earlier.url), "history-earlier");
    await eventually(async () => expect(await earlier.db.audit.auditLogEntry.count({ where: { userId: first.id } })).toBeGreaterThan(0), { timeoutMs: 30_000 });
    await earlier.stop();
    systems.pop();

    const later = await startSystem({ adminUrl: testPostgresAdminUrl(), kafkaBrokers: brokers });
    systems.push(later);
    const user = await signUpUser(apiClient(later.url), "history-later");
    await eventually(async () => expect(await later.db.audit.auditLogEntry.count({ where: { userId: user.id } })).toBeGreaterThan(0), { timeoutMs: 30_000 });
    expect(await later.db.audit.auditLogEntry.count({ where: { userId: first.id } })).toBe(0);
  }, 120_000);
});
