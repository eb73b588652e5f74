import type { IdentityDb } from "../../db";

/**
 * The DELETE statements of the identity sweep. Each removes at most `batch` rows and answers how
 * many it removed: a big backlog goes in short statements, so no table is locked for long, and
 * rows another statement holds (a login being counted) are skipped, left for the next batch.
 */
export function createIdentitySweepRepository(db: IdentityDb) {
  return {
    /** Throttle keys no longer locked whose last attempt is older than the forget window: the next attempt would start from one anyway. */
    staleLoginThrottles: (now: Date, forgetBefore: Date, batch: number) => db.$executeRaw`
      DELETE FROM login_throttles WHERE key IN (
        SELECT key FROM login_throttles
         WHERE (locked_until IS NULL OR locked_until <= ${now}) AND last_failure_at < ${forgetBefore}
         LIMIT ${batch}::int FOR UPDATE SKIP LOCKED)`,

    /**
     * Refresh tokens past their expiry, spent or not. A spent one is kept until then: presented
     * again while it could still work, it proves the session leaked (reuse detection).
     */
    expiredRefreshTokens: (now: Date, batch: number) => db.$executeRaw`
      DELETE FROM refresh_tokens WHERE id IN (
        SELECT id FROM refresh_tokens WHERE expires_at <= ${now}
         LIMIT ${batch}::int FOR UPDATE SKIP LOCKED)`,

    /** Ended sessions (logout, reuse, idle expiry, suspension) once their last refresh token has expired and gone. */
    endedSessions: (now: Date, batch: number) => db.$executeRaw`
      DELETE FROM sessions WHERE id IN (
        SELECT s.id FROM sessions s
         WHERE s.revoked_at <= ${now} AND NOT EXISTS (SELECT 1 FROM refresh_tokens r WHERE r.session_id = s.id)
         LIMIT ${batch}::int FOR UPDATE SKIP LOCKED)`,

    /** SSO sign-ins in progress that expired, finished or not: an expired one is refused like an unknown one. */
    expiredSsoFlows: (now: Date, batch: number) => db.$executeRaw`
      DELETE FROM sso_flows WHERE id IN (
        SELECT id FROM sso_flows WHERE expires_at <= ${now}
         LIMIT ${batch}::int FOR UPDATE SKIP LOCKED)`,

    /** SSO exchange and linking codes that expired, spent or not. */
    expiredSsoTickets: (now: Date, batch: number) => db.$executeRaw`
      DELETE FROM sso_tickets WHERE id IN (
        SELECT id FROM sso_tickets WHERE expires_at <= ${now}
         LIMIT ${batch}::int FOR UPDATE SKIP LOCKED)`,

    /** Sign-up and SSO throttle windows that ended before `before` (rate-limit-repository.ts counts them). */
    endedThrottleWindows: (before: Date, batch: number) => db.$executeRaw`
      DELETE FROM rate_limit_counters WHERE (bucket, window_start) IN (
        SELECT bucket, window_start FROM rate_limit_counters WHERE window_start < ${before}
         LIMIT ${batch}::int FOR UPDATE SKIP LOCKED)`,

    /** Idempotency keys past their retention (a retry after it runs the request again, as a new key would). */
    expiredIdempotencyKeys: (createdBefore: Date, batch: number) => db.$executeRaw`
      DELETE FROM idempotency_keys WHERE (credential, key) IN (
        SELECT credential, key FROM idempotency_keys WHERE created_at < ${createdBefore}
         LIMIT ${batch}::int FOR UPDATE SKIP LOCKED)`,
  };
}
export type IdentitySweepRepository = ReturnType<typeof createIdentitySweepRepository>;
