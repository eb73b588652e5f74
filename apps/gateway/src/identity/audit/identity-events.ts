import type { AuditEventType } from "@hearth/contracts";
import { enqueueAuditEvents } from "@hearth/service-kit/events";
import type { IdentityDb, IdentityTx } from "../../db";
import { collectCredentialChanges } from "../auth/credential-announcements";
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

/**
 * withIdentityEvents on the gateway's database; pokes the relay after a commit that wrote events,
 * so it need not wait for its poll, and tells `onCredentialsChanged` the users whose credentials
 * the work changed, once committed (this instance drops them from its memory at once).
 */
export function bindIdentityEvents(
  db: IdentityDb,
  onEventsWritten: () => void,
  onCredentialsChanged: (userIds: string[]) => void = () => {},
): WithIdentityEvents {
  return async (request, work) => {
    let written = 0;
    const { result, userIds } = await collectCredentialChanges(() =>
      db.$transaction(async (tx) => {
        // Built when recorded (its id, time and validation as of that moment), written in order after the work.
        const events: IdentityAuditEvent[] = [];
        const outcome = await work(tx, (eventType, facts) => void events.push(toIdentityAuditEvent(eventType, facts, request)));
        await enqueueAuditEvents(tx, events);
        written = events.length;
        return outcome;
      }),
    );
    if (userIds.length > 0) onCredentialsChanged(userIds);
    if (written > 0) onEventsWritten();
    return result;
  };
}
