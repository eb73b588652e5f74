import { AppError } from "@hearth/contracts";
import { isUniqueViolation } from "@hearth/service-kit";
import type { IdentityDb } from "../db";
import type { LocalHandler } from "../local-handlers";
import { recordAuthEvent } from "./auth-events";
import type { PasswordHasher } from "./passwords";
import { sha256 } from "./secrets";
import type { TokenIssuer } from "./token-issuer";

export interface AuthHandlerDeps {
  db: IdentityDb;
  passwords: PasswordHasher;
  issueTokens: TokenIssuer;
  /** Called after a commit that wrote audit events, so the relay publishes them without waiting for its poll. */
  onEventsWritten: () => void;
}

const INVALID_LOGIN = new AppError("unauthorized", { message: "Invalid email or password" });
const INVALID_REFRESH = new AppError("unauthorized", { message: "Invalid refresh token" });

function userResource(user: { id: string; email: string; firstName: string | null; lastName: string | null; uiLayout: string; aiEnabled: boolean }) {
  return {
    id: user.id,
    email: user.email,
    first_name: user.firstName,
    last_name: user.lastName,
    ui_layout: user.uiLayout === "intro" ? ("intro" as const) : ("dashboard" as const),
    ai_enabled: user.aiEnabled,
  };
}

export function createAuthHandlers(deps: AuthHandlerDeps) {
  const { db, passwords, issueTokens } = deps;

  /** Creates the user and a new family whose first member is its admin; answers with tokens. */
  const signup: LocalHandler<"auth.signup"> = async ({ input, request }) => {
    const passwordHash = await passwords.hash(input.user.password);
    try {
      const result = await db.$transaction(async (tx) => {
        const family = await tx.family.create({ data: {} });
        const user = await tx.user.create({
          data: { email: input.user.email, passwordHash, firstName: input.user.first_name ?? null, lastName: input.user.last_name ?? null },
        });
        await tx.membership.create({ data: { userId: user.id, familyId: family.id, role: "admin" } });
        const tokens = await issueTokens(tx, { userId: user.id, familyId: family.id, role: "admin" }, input.device);
        await recordAuthEvent(tx, "auth.token.issued", { familyId: family.id, user, request, sessionId: tokens.refreshTokenId });
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
    const valid = await passwords.verify(user?.passwordHash ?? null, input.password);
    if (!user || !valid || !user.membership) {
      // The reason is kept in the audit log only: the answer is the same for both failures.
      await db.$transaction((tx) =>
        recordAuthEvent(tx, "auth.login.failed", {
          familyId: user?.membership?.familyId ?? null,
          user: user ? { id: user.id, email: user.email } : null,
          request,
          error: user ? "invalid_password" : "unknown_email",
        }),
      );
      deps.onEventsWritten();
      throw INVALID_LOGIN;
    }
    const membership = user.membership;
    const result = await db.$transaction(async (tx) => {
      const tokens = await issueTokens(tx, { userId: user.id, familyId: membership.familyId, role: membership.role }, input.device);
      const facts = { familyId: membership.familyId, user, request, sessionId: tokens.refreshTokenId };
      await recordAuthEvent(tx, "auth.login.success", facts);
      await recordAuthEvent(tx, "auth.token.issued", facts);
      return { ...tokens.response, user: userResource(user) };
    });
    deps.onEventsWritten();
    return result;
  };

  /** Rotates: the presented refresh token is spent and a new pair is issued, atomically. */
  const refresh: LocalHandler<"auth.refresh"> = async ({ input, request }) => {
    const now = new Date();
    const stored = await db.refreshToken.findUnique({ where: { tokenHash: sha256(input.refresh_token) }, include: { user: { include: { membership: true } } } });
    if (!stored || stored.revokedAt || stored.expiresAt <= now || stored.deviceId !== input.device.device_id || !stored.user.membership) {
      throw INVALID_REFRESH;
    }
    const { user } = stored;
    const membership = stored.user.membership;
    const result = await db.$transaction(async (tx) => {
      const spent = await tx.refreshToken.updateMany({ where: { id: stored.id, revokedAt: null }, data: { revokedAt: now } });
      if (spent.count !== 1) throw INVALID_REFRESH; // lost a race with a concurrent refresh of the same token
      const tokens = await issueTokens(tx, { userId: user.id, familyId: membership.familyId, role: membership.role }, { device_id: stored.deviceId, device_name: stored.deviceName ?? undefined, device_type: stored.deviceType ?? undefined }, now);
      await tx.refreshToken.update({ where: { id: stored.id }, data: { replacedById: tokens.refreshTokenId } });
      await recordAuthEvent(tx, "auth.token.refreshed", { familyId: membership.familyId, user, request, sessionId: tokens.refreshTokenId });
      return tokens.response;
    });
    deps.onEventsWritten();
    return result;
  };

  return { "auth.signup": signup, "auth.login": login, "auth.refresh": refresh };
}
