import { randomUUID } from "node:crypto";
import type pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildAuditEvent } from "../../src/events/audit-event-builder";
import { enqueueAuditEvents, type SqlExecutor } from "../../src/events/outbox";
import { outboxDatabase } from "./outbox-db";

let pool: pg.Pool;
beforeAll(async () => {
  pool = await outboxDatabase();
});
afterAll(async () => pool?.end());

/** Prisma's tagged-template $executeRaw, on a pg client: each value becomes a parameter. */
function executorOf(client: pg.Pool | pg.PoolClient): SqlExecutor {
  return {
    async $executeRaw(strings: TemplateStringsArray, ...values: unknown[]) {
      const text = strings.reduce((sql, part, i) => `${sql}$${i}${part}`);
      return (await client.query(text, values)).rowCount ?? 0;
    },
  };
}

const event = (familyId: string | null, eventType: "auth.login.success" | "provider.updated", changes: Record<string, unknown> | null = null) =>
  buildAuditEvent({
    eventType,
    familyId,
    user: { id: randomUUID(), email: "a@example.com" },
    request: { ipAddress: "203.0.113.1", userAgent: "vitest", requestId: "r-1" },
    action: "test",
    resource: "outbox",
    ...(changes ? { changes: Object.fromEntries(Object.entries(changes).map(([key, value]) => [key, { old: null, new: value }])) } : {}),
  });

describe("enqueueAuditEvents", () => {
  it("writes every event in one statement, in the order given, each with its topic, key and payload", async () => {
    const family = randomUUID();
    const events = [
      event(family, "auth.login.success"),
      event(family, "provider.updated", { issuer: "https://id.example" }),
      event(null, "auth.login.success"),
    ];
    await enqueueAuditEvents(executorOf(pool), events);
    const { rows } = await pool.query<{ event_id: string; topic: string; message_key: string; payload: unknown }>(
      "SELECT event_id, topic, message_key, payload FROM outbox_events WHERE event_id = ANY($1::uuid[]) ORDER BY id",
      [events.map((e) => e.eventId)],
    );
    expect(rows.map((row) => row.event_id)).toEqual(events.map((e) => e.eventId));
    expect(rows.map((row) => row.message_key)).toEqual([family, family, events[2]!.user!.id]);
    expect(rows[1]?.topic).not.toBe(rows[0]?.topic);
    expect(rows.map((row) => row.payload)).toEqual(JSON.parse(JSON.stringify(events)));
  });

  it("writes nothing for no events, and nothing at all when the transaction rolls back", async () => {
    await enqueueAuditEvents(executorOf(pool), []);
    const client = await pool.connect();
    const lost = event(randomUUID(), "auth.login.success");
    try {
      await client.query("BEGIN");
      await enqueueAuditEvents(executorOf(client), [lost]);
      await client.query("ROLLBACK");
    } finally {
      client.release();
    }
    expect((await pool.query("SELECT 1 FROM outbox_events WHERE event_id = $1", [lost.eventId])).rowCount).toBe(0);
  });
});
