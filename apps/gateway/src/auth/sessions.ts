import type { IdentityTx } from "../db";

export type SessionEndReason = "logout" | "refresh_token_reuse" | "idle_timeout" | "user_suspended" | "password_changed";

/**
 * Ends a session inside the caller's transaction: the session and every refresh token of it
 * are revoked, and access tokens carrying its id stop working at their next request.
 * Returns false when it had already ended.
 */
export async function revokeSession(tx: IdentityTx, sessionId: string, reason: SessionEndReason, now = new Date()): Promise<boolean> {
  const { count } = await tx.session.updateMany({ where: { id: sessionId, revokedAt: null }, data: { revokedAt: now, revokedReason: reason } });
  await tx.refreshToken.updateMany({ where: { sessionId, revokedAt: null }, data: { revokedAt: now } });
  return count === 1;
}

/** Ends every live session of a user (suspension, password change), except `keepSessionId`. */
export async function revokeUserSessions(tx: IdentityTx, userId: string, reason: SessionEndReason, now = new Date(), keepSessionId?: string): Promise<number> {
  const live = { userId, revokedAt: null, ...(keepSessionId ? { id: { not: keepSessionId } } : {}) };
  const sessions = await tx.session.findMany({ where: live, select: { id: true } });
  await tx.session.updateMany({ where: { id: { in: sessions.map((session) => session.id) } }, data: { revokedAt: now, revokedReason: reason } });
  await tx.refreshToken.updateMany({ where: { sessionId: { in: sessions.map((session) => session.id) }, revokedAt: null }, data: { revokedAt: now } });
  return sessions.length;
}
