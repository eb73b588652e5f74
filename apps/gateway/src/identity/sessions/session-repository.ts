import type { Device, Role } from "@hearth/contracts";
import type { IdentityDb, IdentityTx } from "../../db";
import { announceCredentialChange } from "../auth/credential-announcements";

/** The device a session is opened on: its id, and what the client says it is. */
export type DeviceFacts = Pick<Device, "device_id"> & Partial<Pick<Device, "device_name" | "device_type">>;

export type SessionEndReason = "logout" | "refresh_token_reuse" | "idle_timeout" | "user_suspended" | "password_changed" | "device_relogin";

/** A session's state as every bearer request checks it, read live with the user's role and family. */
export interface SessionState {
  revoked_at: Date | null;
  last_active_at: Date;
  suspended_at: Date | null;
  family_id: string;
  role: Role;
}

/** Sessions and their refresh tokens. Methods taking `tx` run inside the caller's transaction. */
export function createSessionRepository(db: IdentityDb) {
  return {
    async create(tx: IdentityTx, userId: string, device: DeviceFacts): Promise<string> {
      const session = await tx.session.create({
        data: { userId, deviceId: device.device_id, deviceName: device.device_name ?? null, deviceType: device.device_type ?? null },
      });
      return session.id;
    },

    async createRefreshToken(
      tx: IdentityTx,
      token: { userId: string; sessionId: string; tokenHash: string; expiresAt: Date; createdAt: Date },
    ): Promise<string> {
      return (await tx.refreshToken.create({ data: token })).id;
    },

    /** The refresh token of this hash with its session and user (and membership). */
    findRefreshToken: (tokenHash: string) =>
      db.refreshToken.findUnique({ where: { tokenHash }, include: { session: true, user: { include: { membership: true } } } }),

    /**
     * Whether the account of this email is signed in on this device now (a live session of it). One
     * query whether or not the email has an account, so its time tells nothing about that.
     */
    async isLiveDeviceOf(email: string, deviceId: string): Promise<boolean> {
      return (await db.session.count({ where: { deviceId, revokedAt: null, user: { email } }, take: 1 })) > 0;
    },

    /** A spent token as its rotation left it, read in the refreshing transaction: when, and what replaced it. */
    spentToken: (tx: IdentityTx, id: string) => tx.refreshToken.findUnique({ where: { id }, select: { revokedAt: true, replacedById: true } }),

    /** The token a rotation issued, if it is still live (unspent, unexpired, its session not ended). */
    liveReplacement: (tx: IdentityTx, id: string, now: Date) =>
      tx.refreshToken.findFirst({
        where: { id, revokedAt: null, expiresAt: { gt: now }, session: { revokedAt: null } },
        select: { createdAt: true, tokenHash: true },
      }),

    /** Spends a live refresh token; false when it was spent meanwhile (a concurrent refresh). */
    async spendRefreshToken(tx: IdentityTx, id: string, now: Date): Promise<boolean> {
      const spent = await tx.refreshToken.updateMany({ where: { id, revokedAt: null }, data: { revokedAt: now } });
      return spent.count === 1;
    },

    async linkReplacement(tx: IdentityTx, id: string, replacedById: string): Promise<void> {
      await tx.refreshToken.update({ where: { id }, data: { replacedById } });
    },

    async markActive(tx: IdentityTx, sessionId: string, now: Date): Promise<void> {
      await tx.session.update({ where: { id: sessionId }, data: { lastActiveAt: now } });
    },

    /** Records activity of a live session (at most once a minute: see session expiry). */
    touch: (sessionId: string, now: Date) => db.session.updateMany({ where: { id: sessionId, revokedAt: null }, data: { lastActiveAt: now } }),

    /**
     * Ends a session: the session and every refresh token of it are revoked, and access tokens
     * carrying its id stop working at their next request. False when it had already ended.
     */
    async revoke(tx: IdentityTx, sessionId: string, reason: SessionEndReason, now = new Date()): Promise<boolean> {
      const ended = await tx.$queryRaw<{ user_id: string }[]>`
        UPDATE sessions SET revoked_at = ${now}, revoked_reason = ${reason} WHERE id = ${sessionId}::uuid AND revoked_at IS NULL RETURNING user_id::text`;
      await tx.refreshToken.updateMany({ where: { sessionId, revokedAt: null }, data: { revokedAt: now } });
      await announceCredentialChange(
        tx,
        ended.map((row) => row.user_id),
      );
      return ended.length === 1;
    },

    /**
     * Ends the user's live sessions on this device: a new sign-in there replaces them, as Sure's
     * MobileDevice#issue_token! revokes the device's earlier tokens. Answers how many ended.
     */
    async revokeDevice(tx: IdentityTx, userId: string, deviceId: string, now = new Date()): Promise<number> {
      // The user's row lock makes sign-ins of one user run one after another, so of two at once
      // on one device the later one still sees, and ends, the earlier one's session. NO KEY: a
      // refresh holding the session inserts a token referencing the user (a KEY SHARE lock), which
      // FOR UPDATE would block while this waits for the session: a deadlock.
      await tx.$executeRaw`SELECT 1 FROM users WHERE id = ${userId}::uuid FOR NO KEY UPDATE`;
      const sessions = await tx.session.findMany({ where: { userId, deviceId, revokedAt: null }, select: { id: true } });
      const ids = sessions.map((session) => session.id);
      if (ids.length === 0) return 0;
      await tx.session.updateMany({ where: { id: { in: ids }, revokedAt: null }, data: { revokedAt: now, revokedReason: "device_relogin" } });
      await tx.refreshToken.updateMany({ where: { sessionId: { in: ids }, revokedAt: null }, data: { revokedAt: now } });
      await announceCredentialChange(tx, [userId]);
      return ids.length;
    },

    /** Ends every live session of a user (suspension, password change), except `keepSessionId`. */
    async revokeAllOfUser(tx: IdentityTx, userId: string, reason: SessionEndReason, now = new Date(), keepSessionId?: string): Promise<number> {
      const live = { userId, revokedAt: null, ...(keepSessionId ? { id: { not: keepSessionId } } : {}) };
      const sessions = await tx.session.findMany({ where: live, select: { id: true } });
      await tx.session.updateMany({ where: { id: { in: sessions.map((session) => session.id) } }, data: { revokedAt: now, revokedReason: reason } });
      await tx.refreshToken.updateMany({ where: { sessionId: { in: sessions.map((session) => session.id) }, revokedAt: null }, data: { revokedAt: now } });
      if (sessions.length > 0) await announceCredentialChange(tx, [userId]);
      return sessions.length;
    },

    /** The session with its user and membership, for the events of its end. */
    findWithUser: (tx: IdentityTx, sessionId: string) =>
      tx.session.findUniqueOrThrow({ where: { id: sessionId }, include: { user: { include: { membership: true } } } }),

    /** Ids of live sessions unused since `before`, a batch at a time. */
    async findIdle(before: Date, take: number): Promise<string[]> {
      const idle = await db.session.findMany({ where: { revokedAt: null, lastActiveAt: { lt: before } }, select: { id: true }, take });
      return idle.map((session) => session.id);
    },

    /** One round trip on the hot path of every bearer request. */
    async stateOf(sessionId: string, userId: string): Promise<SessionState | undefined> {
      const [state] = await db.$queryRaw<SessionState[]>`
        SELECT s.revoked_at, s.last_active_at, u.suspended_at, m.family_id, m.role::text AS role
          FROM sessions s JOIN users u ON u.id = s.user_id JOIN memberships m ON m.user_id = s.user_id
         WHERE s.id = ${sessionId}::uuid AND s.user_id = ${userId}::uuid`;
      return state;
    },
  };
}
export type SessionRepository = ReturnType<typeof createSessionRepository>;
