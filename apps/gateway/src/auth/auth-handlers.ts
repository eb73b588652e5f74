import { AppError } from "@hearth/contracts";
import { isUniqueViolation } from "@hearth/service-kit";
import type { IdentityDb } from "../db";
import { requireActor, type LocalHandler } from "../local-handlers";
import { recordIdentityEvent } from "../events/identity-events";
import type { PasswordHasher } from "./passwords";
import { ACCOUNT_SUSPENDED, INVALID_LOGIN } from "./auth-errors";
import { sha256 } from "./secrets";
import type { LoginThrottle } from "./login-throttle";
import type { SecondFactor } from "./second-factor";
import type { SessionExpiry } from "./session-expiry";
import { revokeSession } from "./sessions";
import { userResource } from "../users/user-resource";
import { claimInvitation } from "../users/invitation-handlers";
import type { TokenIssuer } from "./token-issuer";

export interface AuthHandlerDeps {
  db: IdentityDb;
  passwords: PasswordHasher;
  issueTokens: TokenIssuer;
  /** Called after a commit that wrote audit events, so the relay publishes them without waiting for its poll. */
  onEventsWritten: () => void;
  /** Per-account and per-IP lockout after repeated failures. */
  throttle: LoginThrottle;
  secondFactor: SecondFactor;
  sessionExpiry: SessionExpiry;
}

// Sure's answer to a login of a user with MFA on, without a right code: clients then ask for one.
const MFA_REQUIRED = new AppError("unauthorized", { message: "Two-factor authentication required", mfaRequired: true });
const INVALID_REFRESH = new AppError("unauthorized", { message: "Invalid refresh token" });

export function createAuthHandlers(deps: AuthHandlerDeps) {
  const { db, passwords, issueTokens } = deps;

  /** Creates the user and a new family whose first member is its admin (or joins the inviting family); answers with tokens. */
  const signup: LocalHandler<"auth.signup"> = async ({ input, request }) => {
    const passwordHash = await passwords.hash(input.user.password);
    try {
      const result = await db.$transaction(async (tx) => {
        // With an invite code the user joins the inviting family in the role it names.
        const joining = input.invite_code ? await claimInvitation(tx, input.invite_code, input.user.email) : null;
        const { familyId, role } = joining ?? { familyId: (await tx.family.create({ data: {} })).id, role: "admin" as const };
        const user = await tx.user.create({
          data: { email: input.user.email, passwordHash, firstName: input.user.first_name ?? null, lastName: input.user.last_name ?? null },
        });
        await tx.membership.create({ data: { userId: user.id, familyId, role } });
        const tokens = await issueTokens(tx, { userId: user.id, familyId, role }, { device: input.device });
        await recordIdentityEvent(tx, "auth.token.issued", { familyId, user, request, sessionId: tokens.sessionId });
        return { ...tokens.response, user: userResource(user) };
      });
      deps.onEventsWritten();
      return result;
    } catch (err) {
      if (isUniqueViolation(err)) throw AppError.validation(["Email has already been taken"]);
      throw err;
    }
  };

  const login: LocalHandler<"auth.login"> = async ({ input, request }) => {
    const user = await db.user.findUnique({ where: { email: input.email }, include: { membership: true } });
    // The reason is kept in the audit log only: the answer is the same for every failure.
    const recordFailure = async (error: string) => {
      await db.$transaction((tx) =>
        recordIdentityEvent(tx, "auth.login.failed", {
          familyId: user?.membership?.familyId ?? null,
          user: user ? { id: user.id, email: user.email } : null,
          request,
          error,
        }),
      );
      deps.onEventsWritten();
    };
    try {
      await deps.throttle.assertAllowed(input.email, request.ipAddress);
    } catch (err) {
      await recordFailure("locked_out");
      throw err;
    }
    const valid = await passwords.verify(user?.passwordHash ?? null, input.password);
    if (!user || !valid || !user.membership) {
      await deps.throttle.recordFailure(input.email, request.ipAddress);
      await recordFailure(user ? "invalid_password" : "unknown_email");
      throw INVALID_LOGIN;
    }
    if (user.otpEnabledAt) {
      // No code yet is a normal step of an MFA login, not a failure; a wrong code is one.
      if (!input.otp_code) throw MFA_REQUIRED;
      if (!(await deps.secondFactor.accept(user, input.otp_code))) {
        await deps.throttle.recordFailure(input.email, request.ipAddress);
        await recordFailure("invalid_otp");
        throw MFA_REQUIRED;
      }
    }
    if (user.suspendedAt) {
      await recordFailure("user_suspended");
      throw ACCOUNT_SUSPENDED;
    }
    await deps.throttle.recordSuccess(input.email);
    const membership = user.membership;
    const result = await db.$transaction(async (tx) => {
      const tokens = await issueTokens(tx, { userId: user.id, familyId: membership.familyId, role: membership.role }, { device: input.device });
      const facts = { familyId: membership.familyId, user, request, sessionId: tokens.sessionId };
      await recordIdentityEvent(tx, "auth.login.success", facts);
      await recordIdentityEvent(tx, "auth.token.issued", facts);
      return { ...tokens.response, user: userResource(user) };
    });
    deps.onEventsWritten();
    return result;
  };

  /**
   * Rotates: the presented refresh token is spent and a new pair of the same session is issued,
   * atomically. A token presented again after it was spent means it leaked: the whole session
   * is revoked (reuse detection) and `auth.token.revoked` recorded.
   */
  const refresh: LocalHandler<"auth.refresh"> = async ({ input, request }) => {
    if (!input.refresh_token?.trim()) throw new AppError("bad_request", { message: "Refresh token is required" });
    const now = new Date();
    const stored = await db.refreshToken.findUnique({
      where: { tokenHash: sha256(input.refresh_token) },
      include: { session: true, user: { include: { membership: true } } },
    });
    if (!stored || stored.session.deviceId !== input.device.device_id || !stored.user.membership) throw INVALID_REFRESH;
    const { user, session } = stored;
    const membership = stored.user.membership;
    if (stored.revokedAt) {
      if (!session.revokedAt) {
        await db.$transaction(async (tx) => {
          if (await revokeSession(tx, session.id, "refresh_token_reuse", now)) {
            await recordIdentityEvent(tx, "auth.token.revoked", {
              familyId: membership.familyId,
              user,
              request,
              sessionId: session.id,
              error: "refresh_token_reuse",
            });
          }
        });
        deps.onEventsWritten();
      }
      throw INVALID_REFRESH;
    }
    if (session.revokedAt || stored.expiresAt <= now) throw INVALID_REFRESH;
    if (user.suspendedAt) throw ACCOUNT_SUSPENDED;
    if (deps.sessionExpiry.isIdle(session.lastActiveAt, now)) {
      await deps.sessionExpiry.expire(session.id, request, now);
      throw INVALID_REFRESH;
    }
    const result = await db.$transaction(async (tx) => {
      const spent = await tx.refreshToken.updateMany({ where: { id: stored.id, revokedAt: null }, data: { revokedAt: now } });
      if (spent.count !== 1) throw INVALID_REFRESH; // lost a race with a concurrent refresh of the same token
      await tx.session.update({ where: { id: session.id }, data: { lastActiveAt: now } });
      const tokens = await issueTokens(tx, { userId: user.id, familyId: membership.familyId, role: membership.role }, { sessionId: session.id }, now);
      await tx.refreshToken.update({ where: { id: stored.id }, data: { replacedById: tokens.refreshTokenId } });
      await recordIdentityEvent(tx, "auth.token.refreshed", { familyId: membership.familyId, user, request, sessionId: session.id });
      return tokens.response;
    });
    deps.onEventsWritten();
    return result;
  };

  /** Ends the session of the bearer token: its refresh tokens and access tokens stop working at once. */
  const logout: LocalHandler<"auth.logout"> = async ({ actor, request }) => {
    const { userId, familyId, sessionId } = requireActor(actor);
    if (!sessionId) throw new AppError("forbidden", { message: "Log out with the bearer token of the session to end" });
    await db.$transaction(async (tx) => {
      if (await revokeSession(tx, sessionId, "logout")) {
        const user = await tx.user.findUniqueOrThrow({ where: { id: userId }, select: { id: true, email: true } });
        await recordIdentityEvent(tx, "auth.logout", { familyId, user, request, sessionId });
      }
    });
    deps.onEventsWritten();
  };

  return { "auth.signup": signup, "auth.login": login, "auth.refresh": refresh, "auth.logout": logout };
}
