import { AppError } from "@hearth/contracts";
import { isUniqueViolation } from "@hearth/service-kit";
import { sha256 } from "../../crypto/secrets";
import type { RecordIdentityEvent, Transaction, WithIdentityEvents } from "../audit/identity-events";
import { claimInvitation } from "../invitations/invitation-claim";
import type { InvitationRepository } from "../invitations/invitation-repository";
import { requireActor, type LocalHandler } from "../local-handlers";
import type { SecondFactor } from "../mfa/second-factor";
import type { SessionExpiry } from "../sessions/session-expiry";
import type { SessionRepository } from "../sessions/session-repository";
import type { UserRepository } from "../users/user-repository";
import { DEVICE_REQUIRED, INVALID_LOGIN, INVALID_REFRESH, LOGIN_DEACTIVATED, MFA_REQUIRED, REFRESH_TOKEN_REQUIRED } from "./auth-errors";
import type { AuthRepository } from "./auth-repository";
import { toAuthResource } from "./auth-resource";
import type { LoginThrottle } from "./login-throttle";
import type { PasswordHasher } from "./passwords";
import type { IpThrottle } from "../ip-throttle";
import type { AccessTokens } from "./access-tokens";
import type { RefreshRotation } from "./refresh-rotation";
import { answerOf, type TokenIssuer } from "./token-issuer";

export interface AuthHandlerDeps {
  accounts: AuthRepository;
  users: UserRepository;
  sessions: SessionRepository;
  invitations: InvitationRepository;
  passwords: PasswordHasher;
  issueTokens: TokenIssuer;
  withIdentityEvents: WithIdentityEvents;
  /** Per-account and per-IP lockout after repeated failures. */
  throttle: LoginThrottle;
  /** Sign-ups per client IP. */
  signupThrottle: IpThrottle;
  secondFactor: SecondFactor;
  sessionExpiry: SessionExpiry;
  /** Recomputes a refresh's pair from the token presented, for the grace window. */
  rotation: RefreshRotation;
  accessTokens: AccessTokens;
}

export function createAuthHandlers(deps: AuthHandlerDeps) {
  const { accounts, sessions, passwords, issueTokens, withIdentityEvents } = deps;

  /** Creates the user and a new family whose first member is its admin (or joins the inviting family); answers with tokens. */
  const signup: LocalHandler<"auth.signup"> = async ({ input, request }) => {
    // Bad input, like the body's validation before it: not counted as a sign-up.
    const device = input.device;
    if (!device) throw DEVICE_REQUIRED;
    await deps.signupThrottle.admit(request.ipAddress);
    const passwordHash = await passwords.hash(input.user.password);
    try {
      return await withIdentityEvents(request, async (tx, record) => {
        // With an invite code the user joins the inviting family in the role it names.
        const joining = input.invite_code ? await claimInvitation(deps.invitations, tx, input.invite_code, input.user.email) : null;
        const { familyId, role } = joining ?? { familyId: await accounts.createFamily(tx), role: "admin" as const };
        const user = await accounts.createAccount(
          tx,
          { email: input.user.email, passwordHash, firstName: input.user.first_name ?? null, lastName: input.user.last_name ?? null },
          familyId,
          role,
        );
        const tokens = await issueTokens(tx, { userId: user.id, familyId, role }, { device });
        record("auth.token.issued", { familyId, user, sessionId: tokens.sessionId });
        return toAuthResource(tokens.response, user);
      });
    } catch (err) {
      if (isUniqueViolation(err)) throw AppError.taken("Email");
      throw err;
    }
  };

  const login: LocalHandler<"auth.login"> = async ({ input, request }) => {
    // Counted before anything is checked, so parallel guesses get no more checks than the
    // allowance. A refused attempt writes no event: the lockout was recorded when it started.
    // A device the account is signed in on gets through an IP locked by others' failures (a shared network).
    const deviceId = input.device?.device_id;
    const onLiveDevice = async () => (deviceId ? sessions.isLiveDeviceOf(input.email, deviceId) : false);
    const admission = await deps.throttle.admitLogin(input.email, request.ipAddress, new Date(), onLiveDevice);
    const ip = admission.countedIp;
    const user = await accounts.findLoginUser(input.email);
    // The reason is kept in the audit log only: the answer is the same for every failure.
    // Written on its own, before the refusal is thrown: a failed login is recorded though the request fails.
    const recordFailure = (error: string, lockStarted: boolean) =>
      withIdentityEvents(request, async (_tx, record) => {
        const facts = { familyId: user?.membership?.familyId ?? null, user: user ? { id: user.id, email: user.email } : null };
        record("auth.login.failed", { ...facts, error });
        if (lockStarted) record("auth.login.failed", { ...facts, error: "locked_out" });
      });
    const valid = await passwords.verify(user?.passwordHash ?? null, input.password);
    if (!user || !valid || !user.membership) {
      await recordFailure(user ? "invalid_password" : "unknown_email", admission.lockStarted);
      throw INVALID_LOGIN;
    }
    if (user.otpEnabledAt) {
      // No code yet is a normal step of an MFA login, not a failure; a wrong code is one, of the login and of the second factor.
      if (!input.otp_code) {
        await deps.throttle.refundLogin(input.email, ip);
        throw MFA_REQUIRED;
      }
      const codeAdmission = await deps.throttle.admitSecondFactor(user.id);
      if (!(await deps.secondFactor.accept(user, input.otp_code))) {
        await recordFailure("invalid_otp", admission.lockStarted || codeAdmission.lockStarted);
        throw MFA_REQUIRED;
      }
      await deps.throttle.secondFactorPassed(user.id);
    }
    if (user.suspendedAt) {
      // The right password: not a guess to count.
      await deps.throttle.refundLogin(input.email, ip);
      await recordFailure("user_suspended", false);
      throw LOGIN_DEACTIVATED;
    }
    // Checked once the credentials are, as Sure does; the right password is no guess to count.
    const device = input.device;
    if (!device) {
      await deps.throttle.refundLogin(input.email, ip);
      throw DEVICE_REQUIRED;
    }
    await deps.throttle.recordSuccess(input.email, ip);
    const membership = user.membership;
    return withIdentityEvents(request, async (tx, record) => {
      const tokens = await issueTokens(tx, { userId: user.id, familyId: membership.familyId, role: membership.role }, { device });
      const facts = { familyId: membership.familyId, user, sessionId: tokens.sessionId };
      record("auth.login.success", facts);
      record("auth.token.issued", facts);
      return toAuthResource(tokens.response, user);
    });
  };

  /**
   * Rotates: the presented refresh token is spent and a new pair of the same session is issued,
   * atomically. A token presented again after it was spent means it leaked: the whole session
   * is revoked (reuse detection) and `auth.token.revoked` recorded, once. Except within the
   * grace window, on the session's own device, while the pair it was spent for is unused: two
   * screens of an app refreshing at once both get that same pair (refresh-rotation).
   */
  const refresh: LocalHandler<"auth.refresh"> = async ({ input, request }) => {
    if (!input.refresh_token?.trim()) throw REFRESH_TOKEN_REQUIRED;
    const presented = input.refresh_token;
    const now = new Date();
    const stored = await sessions.findRefreshToken(sha256(presented));
    if (!stored || !stored.user.membership) throw INVALID_REFRESH;
    const { user, session } = stored;
    const membership = stored.user.membership;
    const subject = { userId: user.id, familyId: membership.familyId, role: membership.role, sessionId: session.id };
    const endForReuse = async (tx: Transaction, record: RecordIdentityEvent) => {
      if (await sessions.revoke(tx, session.id, "refresh_token_reuse", now)) {
        record("auth.token.revoked", { familyId: membership.familyId, user, sessionId: session.id, error: "refresh_token_reuse" });
      }
    };
    /** The pair this spent token was rotated into, when the grace window still allows answering it again. */
    const graceAnswer = async (tx: Transaction, spent: { revokedAt: Date | null; replacedById: string | null } | null) => {
      if (!spent?.revokedAt || !spent.replacedById || user.suspendedAt) return null;
      if (input.device?.device_id !== session.deviceId || !deps.rotation.withinGrace(spent.revokedAt, now)) return null;
      const replacement = await sessions.liveReplacement(tx, spent.replacedById, now);
      const refreshToken = deps.rotation.nextRefreshToken(presented);
      // A pair not derived from this token (rotated before the window existed, or under another key) cannot be answered again.
      if (!replacement || replacement.tokenHash !== sha256(refreshToken)) return null;
      return answerOf(deps.accessTokens, subject, refreshToken, replacement.createdAt, deps.rotation.accessTokenId(presented));
    };
    // Whatever device it claims: a spent token is a leaked one, unless the grace window covers it.
    if (stored.revokedAt) {
      const again = await withIdentityEvents(request, async (tx, record) => {
        const answer = await graceAnswer(tx, stored);
        if (!answer && !session.revokedAt) await endForReuse(tx, record);
        return answer;
      });
      if (again) return again;
      throw INVALID_REFRESH;
    }
    if (!input.device) throw DEVICE_REQUIRED;
    if (session.deviceId !== input.device.device_id || session.revokedAt || stored.expiresAt <= now) throw INVALID_REFRESH;
    // Sure answers a deactivated user's refresh as any other dead token.
    if (user.suspendedAt) throw INVALID_REFRESH;
    if (deps.sessionExpiry.isIdle(session.lastActiveAt, now)) {
      await deps.sessionExpiry.expire(session.id, request, now);
      throw INVALID_REFRESH;
    }
    const rotated = await withIdentityEvents(request, async (tx, record) => {
      // The session row first, then its tokens: the order of every write that ends sessions (a
      // sign-in on the same device, a logout); token first deadlocked against a sign-in.
      await sessions.markActive(tx, session.id, now);
      // One conditional update spends it: of requests presenting the same token at once, one
      // wins; every other one presented a spent token (answered by the grace window, or a reuse).
      if (!(await sessions.spendRefreshToken(tx, stored.id, now))) {
        const answer = await graceAnswer(tx, await sessions.spentToken(tx, stored.id));
        if (!answer) await endForReuse(tx, record);
        return answer;
      }
      const derived = { refreshToken: deps.rotation.nextRefreshToken(presented), jti: deps.rotation.accessTokenId(presented) };
      const tokens = await issueTokens(tx, { userId: user.id, familyId: membership.familyId, role: membership.role }, { sessionId: session.id }, now, derived);
      await sessions.linkReplacement(tx, stored.id, tokens.refreshTokenId);
      record("auth.token.refreshed", { familyId: membership.familyId, user, sessionId: session.id });
      return tokens.response;
    });
    if (!rotated) throw INVALID_REFRESH;
    return rotated;
  };

  /** Ends the session of the bearer token: its refresh tokens and access tokens stop working at once. */
  const logout: LocalHandler<"auth.logout"> = async ({ actor, request }) => {
    const { userId, familyId, sessionId } = requireActor(actor);
    if (!sessionId) throw new AppError("forbidden", { message: "Log out with the bearer token of the session to end" });
    await withIdentityEvents(request, async (tx, record) => {
      if (await sessions.revoke(tx, sessionId, "logout")) {
        record("auth.logout", { familyId, user: await deps.users.findRef(tx, userId), sessionId });
      }
    });
  };

  return { "auth.signup": signup, "auth.login": login, "auth.refresh": refresh, "auth.logout": logout };
}
