import { afterAll, beforeAll, expect, it } from "vitest";
import { Kafka, logLevel } from "kafkajs";
import { describeWithKafka, startPrivateKafkaBroker, testPostgresAdminUrl, type PrivateKafkaBroker } from "@hearth/test-kit";
import {
  SECOND_DEVICE,
  TEST_PASSWORD,
  apiClient,
  eventually,
  expectAuditEntries,
  logIn,
  pendingOutboxCount,
  signUpUser,
  startSystem,
  type ApiClient,
  type TestSystem,
} from "../src";

// The file runs on a broker of its own (infra/kafka/kafka.sh on free ports), which its outage test
// stops and starts again: the run's shared broker, and the files beside this one, never notice.
describeWithKafka("audit events through a real Kafka broker", (sharedBrokers) => {
  let system: TestSystem;
  let api: ApiClient;
  let brokers: string;
  let privateBroker: PrivateKafkaBroker | null = null;
  let noPrivateBroker = "";

  beforeAll(async () => {
    try {
      privateBroker = await startPrivateKafkaBroker();
    } catch (error) {
      // Kafka from testcontainers, and no Java for kafka.sh: the outage test cannot run here.
      if (process.env.REQUIRE_KAFKA === "1") throw error;
      noPrivateBroker = String(error);
    }
    brokers = privateBroker?.brokers ?? sharedBrokers;
    system = await startSystem({ adminUrl: testPostgresAdminUrl(), kafkaBrokers: brokers });
    api = apiClient(system.url);
    expect(system.gateway.publisherName).toBe("kafka");
  }, 180_000);
  afterAll(async () => {
    await system?.stop();
    await privateBroker?.remove();
  });

  it("publishes to the event family's topic, keyed by family, and the audit service stores each event", async () => {
    const user = await signUpUser(api, "kafka");
    const [entry] = await expectAuditEntries(api, user.accessToken, "eventType=auth.token.issued", 1);
    const membership = await system.db.gateway.membership.findUniqueOrThrow({ where: { userId: user.id } });
    const outboxRow = await system.db.gateway.outboxEvent.findFirstOrThrow({ where: { messageKey: membership.familyId } });
    expect(outboxRow.topic).toBe("hearth.audit.auth");
    expect(outboxRow.publishedAt).not.toBeNull();

    // Read the topic back with a consumer of our own: the message is there under the family's key.
    const kafka = new Kafka({ clientId: "system-test-reader", brokers: brokers.split(","), logLevel: logLevel.NOTHING });
    const consumer = kafka.consumer({ groupId: `system-test-reader-${Date.now()}` });
    const seen: { key: string | undefined; eventId: string }[] = [];
    await consumer.connect();
    try {
      await consumer.subscribe({ topic: "hearth.audit.auth", fromBeginning: true });
      await consumer.run({
        eachMessage: async ({ message }) => {
          // Other tests may leave non-JSON messages on the shared topic: never throw on them.
          const eventId = /"eventId":"([0-9a-f-]{36})"/.exec(message.value?.toString() ?? "")?.[1] ?? "";
          seen.push({ key: message.key?.toString(), eventId });
        },
      });
      await eventually(async () => expect(seen).toContainEqual({ key: membership.familyId, eventId: outboxRow.eventId }), { timeoutMs: 30_000 });
    } finally {
      await consumer.disconnect();
    }
    expect(entry?.id).toBeDefined();
  });

  it("keeps events while the broker is stopped and delivers each exactly once after it restarts", async (ctx) => {
    const control = privateBroker;
    if (!control) {
      console.warn(`[system-tests] broker outage test skipped: ${noPrivateBroker}`);
      ctx.skip();
      return;
    }
    const user = await signUpUser(api, "outage");
    await expectAuditEntries(api, user.accessToken, "eventType=auth.token.issued", 1);

    await control.stop();
    try {
      // Another device: a login on DEVICE would end the sign-up's session, which reads the log below.
      for (let i = 0; i < 3; i++) expect((await logIn(api, user.email, TEST_PASSWORD, SECOND_DEVICE)).status).toBe(200);
      await new Promise((resolve) => setTimeout(resolve, 1000));
      expect(await pendingOutboxCount(system)).toBeGreaterThanOrEqual(6);
    } finally {
      await control.start();
    }
    system.gateway.relay.poke();
    await expectAuditEntries(api, user.accessToken, "eventType=auth.login.success", 3, 120_000);
    await expectAuditEntries(api, user.accessToken, "eventType=auth.token.issued", 4, 30_000);
    await expect.poll(() => pendingOutboxCount(system), { timeout: 30_000 }).toBe(0);
    const delivered = await system.db.gateway.outboxEvent.findMany({
      where: { messageKey: (await system.db.gateway.membership.findUniqueOrThrow({ where: { userId: user.id } })).familyId },
    });
    expect(await system.db.audit.auditLogEntry.count({ where: { eventId: { in: delivered.map((row) => row.eventId) } } })).toBe(delivered.length);
  });
});
