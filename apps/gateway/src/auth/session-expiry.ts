import type { Logger } from "@hearth/service-kit";
import type { IdentityDb } from "../db";
import { recordIdentityEvent, type EventRequestFacts } from "../events/identity-events";
import { revokeSession } from "./sessions";

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
 * recorded as expired. Every path goes through `revokeSession`, so a session expires once.
 */
export function createSessionExpiry(db: IdentityDb, { idleSeconds, onEventsWritten, log }: SessionExpiryOptions) {
  const idleMs = idleSeconds * 1000;
  // Activity is recorded at most once a minute per session (sooner for very short idle times).
  const touchAfterMs = Math.min(60_000, idleMs / 4);
  let timer: NodeJS.Timeout | undefined;
  let sweeping: Promise<unknown> = Promise.resolve();

  async function expire(sessionId: string, request: EventRequestFacts = NO_REQUEST, now = new Date()): Promise<void> {
    const expired = await db.$transaction(async (tx) => {
      if (!(await revokeSession(tx, sessionId, "idle_timeout", now))) return false;
      const session = await tx.session.findUniqueOrThrow({ where: { id: sessionId }, include: { user: { include: { membership: true } } } });
      await recordIdentityEvent(tx, "auth.session.expired", {
        familyId: session.user.membership?.familyId ?? null,
        user: { id: session.user.id, email: session.user.email },
        request,
        sessionId,
        error: "idle_timeout",
      });
      return true;
    });
    if (expired) onEventsWritten();
  }

  /** Expires every session idle past the limit; answers how many. */
  async function sweep(now = new Date()): Promise<number> {
    let total = 0;
    for (;;) {
      const idle = await db.session.findMany({
        where: { revokedAt: null, lastActiveAt: { lt: new Date(now.getTime() - idleMs) } },
        select: { id: true },
        take: SWEEP_BATCH,
      });
      for (const { id } of idle) await expire(id, NO_REQUEST, now);
      total += idle.length;
      if (idle.length < SWEEP_BATCH) return total;
    }
  }

  return {
    isIdle: (lastActiveAt: Date, now = new Date()) => now.getTime() - lastActiveAt.getTime() > idleMs,
    needsTouch: (lastActiveAt: Date, now = new Date()) => now.getTime() - lastActiveAt.getTime() > touchAfterMs,
    touch: (sessionId: string, now = new Date()) => db.session.updateMany({ where: { id: sessionId, revokedAt: null }, data: { lastActiveAt: now } }),
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
