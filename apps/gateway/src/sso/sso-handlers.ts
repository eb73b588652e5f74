import { AppError, type AuditEventType, type Role } from "@hearth/contracts";
import { isUniqueViolation } from "@hearth/service-kit";
import type { IdentityDb, IdentityTx } from "../db";
import { NO_PASSWORD, type PasswordHasher } from "../auth/passwords";
import type { LoginThrottle } from "../auth/login-throttle";
import { INVALID_LOGIN } from "../auth/auth-errors";
import { sha256 } from "../auth/secrets";
import type { DeviceFacts, TokenIssuer } from "../auth/token-issuer";
import { recordIdentityEvent } from "../events/identity-events";
import { requireActor, type LocalHandler, type RequestFacts } from "../local-handlers";
import { userResource } from "../users/user-resource";
import { roleFromClaim } from "./role-sync";
import type { SsoFlows, TicketClaims } from "./sso-flows";

export interface SsoHandlerDeps {
  db: IdentityDb;
  passwords: PasswordHasher;
  throttle: LoginThrottle;
  issueTokens: TokenIssuer;
  flows: SsoFlows;
  onEventsWritten: () => void;
}

// Sure's answers, word for word where its clients show them.
const INVALID_CODE = new AppError("invalid_or_expired_code", { message: "Authorization code is invalid or expired" });
const INVALID_LINKING_CODE = new AppError("unauthorized", { message: "Linking code is invalid or expired" });
const LINKING_CODE_REQUIRED = new AppError("bad_request", { message: "Linking code is required" });

/** Spends a one-time ticket of the given kind inside the transaction, or throws. */
async function spendTicket(tx: IdentityTx, code: string, kind: "exchange" | "linking", invalid: AppError) {
  const now = new Date();
  const ticket = await tx.ssoTicket.findUnique({ where: { codeHash: sha256(code) }, include: { provider: true } });
  if (!ticket || ticket.kind !== kind || ticket.expiresAt <= now) throw invalid;
  const spent = await tx.ssoTicket.updateMany({ where: { id: ticket.id, consumedAt: null }, data: { consumedAt: now } });
  if (spent.count !== 1) throw invalid;
  if (!ticket.provider.enabled) throw new AppError("forbidden", { message: "This SSO provider is disabled" });
  return { ...ticket, claims: ticket.claims as unknown as TicketClaims, device: ticket.device as unknown as DeviceFacts };
}

/** Sure's mobile SSO endpoints, the start of a sign-in, the provider's callback, and the user's linked identities. */
export function createSsoHandlers({ db, passwords, throttle, issueTokens, flows, onEventsWritten }: SsoHandlerDeps) {
  /** Tokens for a user signed in through a provider, with the audit events of a login. */
  async function signIn(
    tx: IdentityTx,
    user: { id: string; email: string },
    familyId: string,
    role: Role,
    device: DeviceFacts,
    provider: { id: string; name: string },
    request: RequestFacts,
  ) {
    const tokens = await issueTokens(tx, { userId: user.id, familyId, role }, { device });
    // The facts of the new session: the sign-in's other events (connected, created...) carry them too.
    const facts = { familyId, user, request, sessionId: tokens.sessionId, provider: provider.name, providerId: provider.id };
    await recordIdentityEvent(tx, "auth.login.success", facts);
    await recordIdentityEvent(tx, "auth.token.issued", facts);
    return { response: tokens.response, facts };
  }

  const authorize: LocalHandler<"sso.authorize"> = async ({ input, request }) => {
    const { id, redirect_uri: appRedirectUri, ...device } = input;
    const provider = await db.ssoProvider.findUnique({ where: { id } });
    if (!provider) throw AppError.notFound("SSO provider");
    if (!provider.enabled) throw new AppError("forbidden", { message: "This SSO provider is disabled" });
    return flows.start(provider, { purpose: "login", appRedirectUri, startedById: null, device }, request);
  };

  const callback: LocalHandler<"sso.callback"> = async ({ input, request }) => flows.complete(input, request);

  const exchange: LocalHandler<"auth.ssoExchange"> = async ({ input, request }) => {
    if (!input.code?.trim()) throw new AppError("invalid_or_expired_code", { message: "Authorization code is required" });
    const code = input.code;
    const result = await db.$transaction(async (tx) => {
      const ticket = await spendTicket(tx, code, "exchange", INVALID_CODE);
      const user = await tx.user.findUnique({ where: { id: ticket.userId ?? "" }, include: { membership: true } });
      if (!user?.membership || user.suspendedAt) throw INVALID_CODE;
      await tx.ssoIdentity.update({
        where: { providerId_subject: { providerId: ticket.providerId, subject: ticket.claims.sub } },
        data: { lastLoginAt: new Date() },
      });
      const { response } = await signIn(tx, user, user.membership.familyId, user.membership.role, ticket.device, ticket.provider, request);
      return { ...response, user: userResource(user) };
    });
    onEventsWritten();
    return result;
  };

  /** Links the provider account to an existing Hearth account proven by its email and password. */
  const link: LocalHandler<"auth.ssoLink"> = async ({ input, request }) => {
    if (!input.linking_code?.trim()) throw LINKING_CODE_REQUIRED;
    const linkingCode = input.linking_code;
    const live = await db.ssoTicket.findUnique({ where: { codeHash: sha256(linkingCode) } });
    if (!live || live.kind !== "linking" || live.consumedAt || live.expiresAt <= new Date()) throw INVALID_LINKING_CODE;
    await throttle.assertAllowed(input.email, request.ipAddress);
    const user = await db.user.findUnique({ where: { email: input.email }, include: { membership: true, ssoIdentities: true } });
    if (!(await passwords.verify(user?.passwordHash ?? null, input.password)) || !user?.membership || user.suspendedAt) {
      await throttle.recordFailure(input.email, request.ipAddress);
      await db.$transaction((tx) =>
        recordIdentityEvent(tx, "auth.login.failed", {
          familyId: user?.membership?.familyId ?? null,
          user: user ? { id: user.id, email: user.email } : null,
          request,
          error: user?.suspendedAt ? "user_suspended" : "sso_link_invalid_credentials",
        }),
      );
      onEventsWritten();
      throw INVALID_LOGIN;
    }
    if (user.otpEnabledAt) throw new AppError("unauthorized", { message: "MFA users should sign in with email and password", mfaRequired: true });
    await throttle.recordSuccess(input.email);
    const membership = user.membership;
    try {
      const result = await db.$transaction(async (tx) => {
        const ticket = await spendTicket(tx, linkingCode, "linking", INVALID_LINKING_CODE);
        if (ticket.provider.familyId !== membership.familyId) {
          throw new AppError("forbidden", { message: "This SSO provider belongs to another family" });
        }
        await tx.ssoIdentity.create({
          data: { userId: user.id, providerId: ticket.providerId, subject: ticket.claims.sub, email: ticket.claims.email, lastLoginAt: new Date() },
        });
        // The first provider account connects; a further one links several accounts to the user.
        const { response, facts } = await signIn(tx, user, membership.familyId, membership.role, ticket.device, ticket.provider, request);
        const event: AuditEventType = user.ssoIdentities.length === 0 ? "account.connected" : "account.linked";
        await recordIdentityEvent(tx, event, facts);
        return { ...response, user: userResource(user) };
      });
      onEventsWritten();
      return result;
    } catch (err) {
      if (isUniqueViolation(err)) throw new AppError("conflict", { message: "This SSO account is already linked" });
      throw err;
    }
  };

  /** Just-in-time creation: a new member of the provider's family, in the role its claim (or default) gives. */
  const createAccount: LocalHandler<"auth.ssoCreateAccount"> = async ({ input, request }) => {
    if (!input.linking_code?.trim()) throw LINKING_CODE_REQUIRED;
    const linkingCode = input.linking_code;
    try {
      const result = await db.$transaction(async (tx) => {
        const ticket = await spendTicket(tx, linkingCode, "linking", INVALID_LINKING_CODE);
        const { provider, claims } = ticket;
        if (!provider.allowAccountCreation) throw new AppError("forbidden", { message: "SSO account creation is disabled. Please contact an administrator." });
        if (!claims.email || !claims.emailVerified) throw AppError.validation(["The SSO provider did not share a verified email address"]);
        const claimedRole = roleFromClaim(provider, claims.roleClaim);
        const role = claimedRole ?? provider.defaultRole;
        const user = await tx.user.create({
          data: {
            email: claims.email,
            // No password: the account signs in through its provider (PATCH /users/me can set one).
            passwordHash: NO_PASSWORD,
            firstName: input.first_name || claims.firstName,
            lastName: input.last_name || claims.lastName,
          },
        });
        await tx.membership.create({ data: { userId: user.id, familyId: provider.familyId, role } });
        await tx.ssoIdentity.create({ data: { userId: user.id, providerId: provider.id, subject: claims.sub, email: claims.email, lastLoginAt: new Date() } });
        const { response, facts } = await signIn(tx, user, provider.familyId, role, ticket.device, provider, request);
        await recordIdentityEvent(tx, "user.created", facts);
        await recordIdentityEvent(tx, "account.connected", facts);
        if (claimedRole) await recordIdentityEvent(tx, "user.roles.synced", { ...facts, changes: { role: { old: null, new: claimedRole } } });
        return { ...response, user: userResource(user) };
      });
      onEventsWritten();
      return result;
    } catch (err) {
      if (isUniqueViolation(err)) throw AppError.validation(["Email has already been taken"]);
      throw err;
    }
  };

  const identities: LocalHandler<"ssoIdentities.list"> = async ({ actor }) => {
    const rows = await db.ssoIdentity.findMany({ where: { userId: requireActor(actor).userId }, include: { provider: true }, orderBy: { createdAt: "asc" } });
    return {
      sso_identities: rows.map((row) => ({
        id: row.id,
        provider_id: row.providerId,
        provider: row.provider.name,
        email: row.email,
        created_at: row.createdAt.toISOString(),
        last_login_at: row.lastLoginAt?.toISOString() ?? null,
      })),
    };
  };

  /** Unlinking one of several accounts is account.unlinked; removing the last one disconnects SSO. */
  const unlink: LocalHandler<"ssoIdentities.delete"> = async ({ actor, input, request }) => {
    const { userId, familyId, sessionId } = requireActor(actor);
    await db.$transaction(async (tx) => {
      const identity = await tx.ssoIdentity.findFirst({ where: { id: input.id, userId }, include: { provider: true, user: true } });
      if (!identity) throw AppError.notFound("SSO identity");
      const count = await tx.ssoIdentity.count({ where: { userId } });
      if (count === 1 && identity.user.passwordHash === NO_PASSWORD) {
        throw AppError.validation(["Set a password before unlinking your last SSO account, or you could not sign in again"]);
      }
      await tx.ssoIdentity.delete({ where: { id: identity.id } });
      await recordIdentityEvent(tx, count > 1 ? "account.unlinked" : "account.disconnected", {
        familyId,
        user: identity.user,
        request,
        sessionId,
        provider: identity.provider.name,
        providerId: identity.providerId,
      });
    });
    onEventsWritten();
  };

  return {
    "sso.authorize": authorize,
    "sso.callback": callback,
    "auth.ssoExchange": exchange,
    "auth.ssoLink": link,
    "auth.ssoCreateAccount": createAccount,
    "ssoIdentities.list": identities,
    "ssoIdentities.delete": unlink,
  };
}
