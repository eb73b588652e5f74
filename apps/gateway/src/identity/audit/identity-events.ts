import type { AuditEventType } from "@hearth/contracts";
import { enqueueAuditEvents } from "@hearth/service-kit/events";
import type { IdentityDb, IdentityTx } from "../../db";
import { toIdentityAuditEvent, type EventRequestFacts, type IdentityAuditEvent, type IdentityEventFacts } from "./identity-event";

/** The transaction handlers hand on to repositories; they never query through it themselves. */
export type Transaction = IdentityTx;

/** Records an identity event: written with the rest of the work, or not at all. */
export type RecordIdentityEvent = (eventType: AuditEventType, facts: IdentityEventFacts) => void;

export type IdentityEventWork<T> = (tx: Transaction, record: RecordIdentityEvent) => Promise<T>;

/**
 * Runs `work` in one transaction and writes the events it records into the outbox in that same
 * transaction, each stamped with the request's facts: a change and its audit trail commit
 * together. An outcome that must be recorded although the request then fails (a refused login)
 * is its own call, made before throwing.
 */
export type WithIdentityEvents = <T>(request: EventRequestFacts, work: IdentityEventWork<T>) => Promise<T>;

/** withIdentityEvents on the gateway's database; pokes the relay after a commit that wrote events, so it need not wait for its poll. */
export function bindIdentityEvents(db: IdentityDb, onEventsWritten: () => void): WithIdentityEvents {
  return async (request, work) => {
    let written = 0;
    const result = await db.$transaction(async (tx) => {
      // Built when recorded (its id, time and validation as of that moment), written in order after the work.
      const events: IdentityAuditEvent[] = [];
      const outcome = await work(tx, (eventType, facts) => void events.push(toIdentityAuditEvent(eventType, facts, request)));
      await enqueueAuditEvents(tx, events);
      written = events.length;
      return outcome;
    });
    if (written > 0) onEventsWritten();
    return result;
  };
}
