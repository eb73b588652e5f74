import type pg from "pg";
import { counter, scrapedGauge, sharedRead, type Sample } from "./registry";

/** Counting stops here: past it the gauge reads this cap (a backlog that size is an incident either way), and the scrape stays cheap. */
export const OUTBOX_COUNT_CAP = 100_000;

export const outboxPublishedTotal = counter({
  name: "outbox_events_published_total",
  help: "Outbox events the relay's publisher acknowledged, by publisher (kafka or audit-service)",
  labelNames: ["publisher"] as const,
});

export const outboxDeadLetteredTotal = counter({
  name: "outbox_events_dead_lettered_total",
  help: "Outbox events the receiver refused for good, moved to outbox_dead_letters, by publisher",
  labelNames: ["publisher"] as const,
});

interface OutboxFacts {
  pending: number;
  oldestAgeSeconds: number | null;
  deadLetters: number;
}

/**
 * One cheap query per scrape: the pending count and the oldest pending row both ride the
 * (published_at, id) index, and both counts stop at OUTBOX_COUNT_CAP.
 */
async function readOutbox(pool: pg.Pool): Promise<OutboxFacts> {
  const { rows } = await pool.query<{ pending: number; oldest_age: number | null; dead_letters: number }>(
    `SELECT (SELECT count(*)::int FROM (SELECT 1 FROM outbox_events WHERE published_at IS NULL LIMIT $1) AS p) AS pending,
            (SELECT extract(epoch FROM now() - created_at)::float8 FROM outbox_events WHERE published_at IS NULL ORDER BY id LIMIT 1) AS oldest_age,
            (SELECT count(*)::int FROM (SELECT 1 FROM outbox_dead_letters LIMIT $1) AS d) AS dead_letters`,
    [OUTBOX_COUNT_CAP],
  );
  const row = rows[0];
  return { pending: row?.pending ?? 0, oldestAgeSeconds: row?.oldest_age ?? null, deadLetters: row?.dead_letters ?? 0 };
}

const outboxes = new Map<object, { publisher: string; read: () => Promise<OutboxFacts> }>();

function gaugeOf(name: string, help: string, value: (facts: OutboxFacts) => number | null) {
  scrapedGauge({
    name,
    help,
    labelNames: ["publisher"] as const,
    async collect() {
      const samples: Sample<"publisher">[] = [];
      for (const { publisher, read } of outboxes.values()) {
        const found = value(await read());
        if (found !== null) samples.push({ labels: { publisher }, value: found });
      }
      return samples;
    },
  });
}

gaugeOf("outbox_pending_events", `Outbox events not yet published (counted up to ${OUTBOX_COUNT_CAP})`, (facts) => facts.pending);
gaugeOf("outbox_oldest_pending_age_seconds", "Age of the oldest unpublished outbox event; 0 when none waits", (facts) => facts.oldestAgeSeconds ?? 0);
gaugeOf("outbox_dead_letter_events", `Events waiting in outbox_dead_letters for an operator (counted up to ${OUTBOX_COUNT_CAP})`, (facts) => facts.deadLetters);

/** Reports the outbox that `owner` (a running relay) publishes, read through `pool` at scrape time, until the returned function is called. */
export function registerOutbox(owner: object, publisher: string, pool: pg.Pool): () => void {
  outboxes.set(owner, { publisher, read: sharedRead(() => readOutbox(pool)) });
  return () => void outboxes.delete(owner);
}
