import type { Logger } from "@hearth/service-kit";
import type { IdentityDb } from "../../db";
import type { EventRequestFacts } from "../audit/identity-event";
import { bindIdentityEvents } from "../audit/identity-events";
import { createSessionRepository } from "./session-repository";

const NO_REQUEST: EventRequestFacts = { ipAddress: null, userAgent: null, requestId: null };
const SWEEP_BATCH = 200;

export interface SessionExpiryOptions {
  idleSeconds: number;
  onEventsWritten: () => void;
  log: Logger;
}

/**
 * Sessions unused for `idleSeconds` expire (`auth.session.expired`): at their next use (the
 * request then gets 401), or by a periodic sweep, so a session nobody returns to is still
 * recorded as expired. Every path goes through the repository's `revoke`, so a session expires once.
 */
export function createSessionExpiry(db: IdentityDb, { idleSeconds, onEventsWritten, log }: SessionExpiryOptions) {
  const sessions = createSessionRepository(db);
  const withIdentityEvents = bindIdentityEvents(db, onEventsWritten);
  const idleMs = idleSeconds * 1000;
  // Activity is recorded at most once a minute per session (sooner for very short idle times).
  const touchAfterMs = Math.min(60_000, idleMs / 4);
  let timer: NodeJS.Timeout | undefined;
  let sweeping: Promise<unknown> = Promise.resolve();

  async function expire(sessionId: string, request: EventRequestFacts = NO_REQUEST, now = new Date()): Promise<void> {
    await withIdentityEvents(request, async (tx, record) => {
      if (!(await sessions.revoke(tx, sessionId, "idle_timeout", now))) return;
      const { user } = await sessions.findWithUser(tx, sessionId);
      record("auth.session.expired", {
        familyId: user.membership?.familyId ?? null,
        user: { id: user.id, email: user.email },
        sessionId,
        error: "idle_timeout",
      });
    });
  }

  /** Expires every session idle past the limit; answers how many. */
  async function sweep(now = new Date()): Promise<number> {
    let total = 0;
    for (;;) {
      const idle = await sessions.findIdle(new Date(now.getTime() - idleMs), SWEEP_BATCH);
      for (const id of idle) await expire(id, NO_REQUEST, now);
      total += idle.length;
      if (idle.length < SWEEP_BATCH) return total;
    }
  }

  return {
    isIdle: (lastActiveAt: Date, now = new Date()) => now.getTime() - lastActiveAt.getTime() > idleMs,
    needsTouch: (lastActiveAt: Date, now = new Date()) => now.getTime() - lastActiveAt.getTime() > touchAfterMs,
    touch: (sessionId: string, now = new Date()) => sessions.touch(sessionId, now),
    expire,
    sweep,
    start(intervalMs = Math.min(60_000, idleMs)): void {
      timer = setInterval(() => {
        sweeping = sweep().catch((err: unknown) => log.warn({ err }, "idle session sweep failed; retrying at the next interval"));
      }, intervalMs);
      timer.unref();
    },
    async stop(): Promise<void> {
      clearInterval(timer);
      await sweeping;
    },
  };
}
export type SessionExpiry = ReturnType<typeof createSessionExpiry>;
