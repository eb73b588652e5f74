import { AppError, MobileSsoDeviceSchema, type AuditEventType, type Role } from "@hearth/contracts";
import { isUniqueViolation } from "@hearth/service-kit";
import { sha256 } from "../../crypto/secrets";
import type { RecordIdentityEvent, Transaction, WithIdentityEvents } from "../audit/identity-events";
import { AuthRefusal, INVALID_LOGIN } from "../auth/auth-errors";
import type { AuthRepository } from "../auth/auth-repository";
import { toAuthResource } from "../auth/auth-resource";
import type { LoginThrottle } from "../auth/login-throttle";
import { NO_PASSWORD, type PasswordHasher } from "../auth/passwords";
import type { TokenIssuer } from "../auth/token-issuer";
import type { LocalHandler } from "../local-handlers";
import type { DeviceFacts } from "../sessions/session-repository";
import type { SsoProviderRepository } from "../sso-providers/sso-provider-repository";
import { roleFromClaim } from "./role-sync";
import type { IpThrottle } from "../ip-throttle";
import type { SsoFlows } from "./sso-flows";
import type { SsoRepository, TicketKind } from "./sso-repository";

export interface SsoHandlerDeps {
  sso: SsoRepository;
  providers: SsoProviderRepository;
  accounts: AuthRepository;
  passwords: PasswordHasher;
  throttle: LoginThrottle;
  /** Sign-in starts per client IP. */
  authorizeThrottle: IpThrottle;
  issueTokens: TokenIssuer;
  flows: SsoFlows;
  withIdentityEvents: WithIdentityEvents;
  /** SSO_MOBILE_PROVIDERS: Sure's mobile provider names, each the id of one provider. */
  mobileProviders: Record<string, string>;
}

// Sure's answers, word for word where its clients show them. The exchange's already has Sure's
// shape (`error` a code, `message` the sentence); the linking ones carry the sentence in `error`.
const INVALID_CODE = new AppError("invalid_or_expired_code", { message: "Authorization code is invalid or expired" });
const INVALID_LINKING_CODE = new AuthRefusal("unauthorized", "Linking code is invalid or expired");
const LINKING_CODE_REQUIRED = new AuthRefusal("bad_request", "Linking code is required");
const MFA_USERS_SIGN_IN = new AuthRefusal("unauthorized", "MFA users should sign in with email and password", { mfaRequired: true });
const ACCOUNT_CREATION_DISABLED = new AuthRefusal("forbidden", "SSO account creation is disabled. Please contact an administrator.");
const PROVIDER_DISABLED = () => new AppError("forbidden", { message: "This SSO provider is disabled" });
/** Where Sure's mobile SSO sends the browser back (Sure's MobileDevice::CALLBACK_URL). */
const SURE_APP_CALLBACK = "sureapp://oauth/callback";

/** Sure's mobile SSO endpoints: the start of a sign-in, the provider's callback, and the one-time codes the app redeems. */
export function createSsoHandlers({
  sso,
  providers,
  accounts,
  passwords,
  throttle,
  authorizeThrottle,
  issueTokens,
  flows,
  withIdentityEvents,
  mobileProviders,
}: SsoHandlerDeps) {
  /** Spends a one-time ticket of the given kind inside the transaction, or throws. */
  async function spendTicket(tx: Transaction, code: string, kind: TicketKind, invalid: AppError) {
    const now = new Date();
    const ticket = await sso.findTicket(tx, sha256(code));
    if (!ticket || ticket.kind !== kind || ticket.expiresAt <= now) throw invalid;
    if (!(await sso.consumeTicket(tx, ticket.id, now))) throw invalid;
    if (!ticket.provider.enabled) throw PROVIDER_DISABLED();
    return ticket;
  }

  /** Tokens for a user signed in through a provider, with the audit events of a login. */
  async function signIn(
    tx: Transaction,
    record: RecordIdentityEvent,
    user: { id: string; email: string },
    familyId: string,
    role: Role,
    device: DeviceFacts,
    provider: { id: string; name: string },
  ) {
    const tokens = await issueTokens(tx, { userId: user.id, familyId, role }, { device });
    // The facts of the new session: the sign-in's other events (connected, created...) carry them too.
    const facts = { familyId, user, sessionId: tokens.sessionId, provider: provider.name, providerId: provider.id };
    record("auth.login.success", facts);
    record("auth.token.issued", facts);
    return { response: tokens.response, facts };
  }

  const authorize: LocalHandler<"sso.authorize"> = async ({ input, request }) => {
    // Counted first: an unknown or disabled provider's id is an attempt too.
    await authorizeThrottle.admit(request.ipAddress);
    const { id, redirect_uri: appRedirectUri, ...device } = input;
    const provider = await providers.findById(id);
    if (!provider) throw AppError.notFound("SSO provider");
    if (!provider.enabled) throw PROVIDER_DISABLED();
    return flows.start(provider, { purpose: "login", appRedirectUri, startedById: null, device }, request);
  };

  /**
   * Sure's mobile SSO start (sessions#mobile_sso_start): the app opens it in the browser with its
   * device in the query. On to the provider the operator gave that name (SSO_MOBILE_PROVIDERS, as
   * Sure's providers are the instance's), or back to the app with `error` and `message` (Sure's
   * mobile_sso_redirect); the callback and sso_exchange then go as for any start.
   */
  const mobileStart: LocalHandler<"sso.mobileStart"> = async ({ input, request }) => {
    const backToApp = (error: string, message: string) => ({ location: `${SURE_APP_CALLBACK}?${new URLSearchParams({ error, message }).toString()}` });
    try {
      await authorizeThrottle.admit(request.ipAddress);
    } catch (err) {
      if (err instanceof AppError && err.code === "rate_limit_exceeded") return backToApp("rate_limit_exceeded", err.message);
      throw err;
    }
    const id = Object.hasOwn(mobileProviders, input.provider) ? mobileProviders[input.provider] : undefined;
    const provider = id ? await providers.findById(id) : null;
    if (!provider?.enabled) return backToApp("invalid_provider", "SSO provider not configured");
    const device = MobileSsoDeviceSchema.safeParse(input);
    if (!device.success) return backToApp("missing_device_info", "Device information is required");
    try {
      const started = await flows.start(provider, { purpose: "login", appRedirectUri: SURE_APP_CALLBACK, startedById: null, device: device.data }, request);
      return { location: started.authorization_url };
    } catch (err) {
      if (err instanceof AppError && (err.status < 500 || err.code === "service_unavailable")) return backToApp(err.code, err.message);
      throw err;
    }
  };

  const callback: LocalHandler<"sso.callback"> = async ({ input, request }) => flows.complete(input, request);

  const exchange: LocalHandler<"auth.ssoExchange"> = async ({ input, request }) => {
    if (!input.code?.trim()) throw new AppError("invalid_or_expired_code", { message: "Authorization code is required" });
    const code = input.code;
    return withIdentityEvents(request, async (tx, record) => {
      const ticket = await spendTicket(tx, code, "exchange", INVALID_CODE);
      const user = await sso.findUserWithMembership(tx, ticket.userId ?? "");
      if (!user?.membership || user.suspendedAt) throw INVALID_CODE;
      await sso.markIdentityLogin(tx, ticket.providerId, ticket.claims.sub, new Date());
      const { response } = await signIn(tx, record, user, user.membership.familyId, user.membership.role, ticket.device, ticket.provider);
      return toAuthResource(response, user);
    });
  };

  /** Links the provider account to an existing Hearth account proven by its email and password. */
  const link: LocalHandler<"auth.ssoLink"> = async ({ input, request }) => {
    if (!input.linking_code?.trim()) throw LINKING_CODE_REQUIRED;
    const linkingCode = input.linking_code;
    const live = await sso.peekTicket(sha256(linkingCode));
    if (!live || live.kind !== "linking" || live.consumedAt || live.expiresAt <= new Date()) throw INVALID_LINKING_CODE;
    // Counted before the password is checked, as a login is.
    await throttle.admitLogin(input.email, request.ipAddress);
    const user = await sso.findLinkingUser(input.email);
    if (!(await passwords.verify(user?.passwordHash ?? null, input.password)) || !user?.membership || user.suspendedAt) {
      // Written on its own, before the refusal is thrown.
      await withIdentityEvents(request, async (_tx, record) =>
        record("auth.login.failed", {
          familyId: user?.membership?.familyId ?? null,
          user: user ? { id: user.id, email: user.email } : null,
          error: user?.suspendedAt ? "user_suspended" : "sso_link_invalid_credentials",
        }),
      );
      throw INVALID_LOGIN;
    }
    if (user.otpEnabledAt) {
      await throttle.refundLogin(input.email, request.ipAddress); // the right password: no failure
      throw MFA_USERS_SIGN_IN;
    }
    await throttle.recordSuccess(input.email, request.ipAddress);
    const membership = user.membership;
    try {
      return await withIdentityEvents(request, async (tx, record) => {
        const ticket = await spendTicket(tx, linkingCode, "linking", INVALID_LINKING_CODE);
        if (ticket.provider.familyId !== membership.familyId) {
          throw new AppError("forbidden", { message: "This SSO provider belongs to another family" });
        }
        await sso.linkIdentity(tx, {
          userId: user.id,
          providerId: ticket.providerId,
          subject: ticket.claims.sub,
          email: ticket.claims.email,
          lastLoginAt: new Date(),
        });
        // The first provider account connects; a further one links several accounts to the user.
        const { response, facts } = await signIn(tx, record, user, membership.familyId, membership.role, ticket.device, ticket.provider);
        const event: AuditEventType = user.ssoIdentities.length === 0 ? "account.connected" : "account.linked";
        record(event, facts);
        return toAuthResource(response, user);
      });
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
      return await withIdentityEvents(request, async (tx, record) => {
        const ticket = await spendTicket(tx, linkingCode, "linking", INVALID_LINKING_CODE);
        const { provider, claims } = ticket;
        if (!provider.allowAccountCreation) throw ACCOUNT_CREATION_DISABLED;
        if (!claims.email || !claims.emailVerified) throw AppError.validation(["The SSO provider did not share a verified email address"]);
        const claimedRole = roleFromClaim(provider, claims.roleClaim);
        const role = claimedRole ?? provider.defaultRole;
        const user = await accounts.createAccount(
          tx,
          {
            email: claims.email,
            // No password: the account signs in through its provider (PATCH /users/me can set one).
            passwordHash: NO_PASSWORD,
            firstName: input.first_name || claims.firstName,
            lastName: input.last_name || claims.lastName,
          },
          provider.familyId,
          role,
        );
        await sso.linkIdentity(tx, { userId: user.id, providerId: provider.id, subject: claims.sub, email: claims.email, lastLoginAt: new Date() });
        const { response, facts } = await signIn(tx, record, user, provider.familyId, role, ticket.device, provider);
        record("user.created", facts);
        record("account.connected", facts);
        if (claimedRole) record("user.roles.synced", { ...facts, changes: { role: { old: null, new: claimedRole } } });
        return toAuthResource(response, user);
      });
    } catch (err) {
      if (isUniqueViolation(err)) throw AppError.taken("Email");
      throw err;
    }
  };

  return {
    "sso.authorize": authorize,
    "sso.mobileStart": mobileStart,
    "sso.callback": callback,
    "auth.ssoExchange": exchange,
    "auth.ssoLink": link,
    "auth.ssoCreateAccount": createAccount,
  };
}
