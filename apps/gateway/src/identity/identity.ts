import { createSecretBox, type Logger } from "@hearth/service-kit";
import { signingKeysOf, type GatewayConfig } from "../config";
import type { IdentityDb } from "../db";
import type { RateLimiter } from "../http/rate-limiter";
import { createApiKeyHandlers } from "./api-keys/api-key-handlers";
import { createApiKeyRepository } from "./api-keys/api-key-repository";
import { createUsageHandlers } from "./api-keys/usage-handlers";
import { bindIdentityEvents } from "./audit/identity-events";
import { createAccessTokens } from "./auth/access-tokens";
import { createAuthHandlers } from "./auth/auth-handlers";
import { createAuthRepository } from "./auth/auth-repository";
import { createAuthenticator } from "./auth/authenticator";
import { createCredentialState } from "./auth/credential-state";
import { createLoginThrottle, DEFAULT_LOGIN_THROTTLE } from "./auth/login-throttle";
import { createPasswordHasher } from "./auth/passwords";
import { createRefreshRotation } from "./auth/refresh-rotation";
import { createTokenIssuer } from "./auth/token-issuer";
import { createInvitationHandlers } from "./invitations/invitation-handlers";
import { createInvitationRepository } from "./invitations/invitation-repository";
import type { LocalHandlers } from "./local-handlers";
import { createFamilyPurgeRepository } from "../family-data/family-purge-repository";
import type { FamilyResetProcedure } from "../family-data/family-reset-handlers";
import { DEFAULT_IDEMPOTENCY } from "../idempotency/idempotent-requests";
import { createIdentitySweeper } from "./maintenance/identity-sweeper";
import { createMemberHandlers } from "./members/member-handlers";
import { createMemberRepository } from "./members/member-repository";
import { createMfaHandlers } from "./mfa/mfa-handlers";
import { createMfaRepository } from "./mfa/mfa-repository";
import { createSecondFactor } from "./mfa/second-factor";
import { createSessionExpiry } from "./sessions/session-expiry";
import { createSessionRepository } from "./sessions/session-repository";
import { createOidcClient } from "./sso/oidc-client";
import { createRoleSync } from "./sso/role-sync";
import { createSsoFlows } from "./sso/sso-flows";
import { createSsoHandlers } from "./sso/sso-handlers";
import { createSsoIdentityHandlers } from "./sso/sso-identity-handlers";
import { createSsoIdentityRepository } from "./sso/sso-identity-repository";
import { createSsoRepository } from "./sso/sso-repository";
import { createSsoProviderHandlers } from "./sso-providers/sso-provider-handlers";
import { createSsoProviderRepository } from "./sso-providers/sso-provider-repository";
import { createUserHandlers } from "./users/user-handlers";
import { createUserRepository } from "./users/user-repository";
import { createIpThrottle } from "./ip-throttle";

export interface IdentityDeps {
  config: GatewayConfig;
  db: IdentityDb;
  log: Logger;
  /** Called after a commit that wrote audit events, so the relay publishes them without waiting for its poll. */
  onEventsWritten: () => void;
  /** GET /api/v1/usage reports from the limiter that enforces the limit. */
  rateLimiter: RateLimiter;
  /** Called after a commit that queued a family purge (a family deleted with its last member), so its job starts at once. */
  onFamilyPurgeQueued: () => void;
}

/** Wires the routes the gateway serves itself: repositories over the identity database, then the rules and handlers on them. */
export function createIdentity({ config, db, log, onEventsWritten, rateLimiter, onFamilyPurgeQueued }: IdentityDeps) {
  const credentials = createCredentialState({ databaseUrl: config.DATABASE_URL, log });
  const withIdentityEvents = bindIdentityEvents(db, onEventsWritten, credentials.dropUsers);
  const accounts = createAuthRepository(db);
  const users = createUserRepository(db);
  const members = createMemberRepository(db);
  const sessions = createSessionRepository(db);
  const invitations = createInvitationRepository(db);
  const apiKeys = createApiKeyRepository(db);
  const mfa = createMfaRepository(db);
  const sso = createSsoRepository(db);
  const providers = createSsoProviderRepository(db);
  const purges = createFamilyPurgeRepository(db);

  const accessTokens = createAccessTokens(signingKeysOf(config), config.ACCESS_TOKEN_TTL_SECONDS);
  const sessionExpiry = createSessionExpiry(db, { idleSeconds: config.SESSION_IDLE_TIMEOUT_SECONDS, onEventsWritten, log });
  const authenticator = createAuthenticator(db, accessTokens, sessionExpiry, credentials.caches);
  const passwords = createPasswordHasher();
  const box = createSecretBox(config.SECRETS_ENCRYPTION_KEY);
  const secondFactor = createSecondFactor(mfa, box);
  const throttle = createLoginThrottle(db);
  const signupThrottle = createIpThrottle(db, {
    bucket: "signup",
    what: "sign-ups",
    limit: config.SIGNUP_RATE_LIMIT_REQUESTS,
    windowSeconds: config.SIGNUP_RATE_LIMIT_WINDOW_SECONDS,
  });
  const issueTokens = createTokenIssuer(sessions, accessTokens, config.REFRESH_TOKEN_TTL_DAYS);
  // Providers are reached on public addresses only unless the operator allows private ones; https only in production.
  const oidc = createOidcClient({ allowPrivateAddresses: config.SSO_ALLOW_PRIVATE_ISSUERS, httpsOnly: config.NODE_ENV === "production" });
  const authorizeThrottle = createIpThrottle(db, {
    bucket: "sso_authorize",
    what: "SSO sign-ins",
    limit: config.SSO_AUTHORIZE_RATE_LIMIT_REQUESTS,
    windowSeconds: config.SSO_AUTHORIZE_RATE_LIMIT_WINDOW_SECONDS,
  });
  const flows = createSsoFlows({
    sso,
    box,
    oidc,
    settings: { publicUrl: config.PUBLIC_URL, appRedirectUris: config.SSO_APP_REDIRECT_URIS },
    syncRole: createRoleSync(members, withIdentityEvents),
    withIdentityEvents,
  });

  // Sure's mobile SSO names: the operator's choice of provider for each (SSO_MOBILE_PROVIDERS).
  const mobileProviders = config.SSO_MOBILE_PROVIDERS;

  // The reset and export download routes need the services too: the gateway adds them (family-data/).
  const local: Omit<LocalHandlers, FamilyResetProcedure | "familyExportDownloads.download"> = {
    ...createAuthHandlers({
      accounts,
      users,
      sessions,
      invitations,
      passwords,
      issueTokens,
      withIdentityEvents,
      throttle,
      signupThrottle,
      secondFactor,
      sessionExpiry,
      rotation: createRefreshRotation(config.SECRETS_ENCRYPTION_KEY, config.REFRESH_REUSE_GRACE_SECONDS),
      accessTokens,
    }),
    ...createMfaHandlers({ mfa, box, secondFactor, withIdentityEvents, throttle }),
    ...createApiKeyHandlers(apiKeys, (userId) => credentials.dropUsers([userId])),
    ...createUsageHandlers(apiKeys, rateLimiter),
    ...createUserHandlers({ users, members, sessions, passwords, throttle, withIdentityEvents, purges, onFamilyPurgeQueued }),
    ...createMemberHandlers({ members, sessions, withIdentityEvents }),
    ...createInvitationHandlers(invitations),
    ...createSsoProviderHandlers({ providers, users, box, flows, oidc, withIdentityEvents }),
    ...createSsoHandlers({ sso, providers, accounts, passwords, throttle, authorizeThrottle, issueTokens, flows, withIdentityEvents, mobileProviders }),
    ...createSsoIdentityHandlers(createSsoIdentityRepository(db), withIdentityEvents),
  };
  const sweeper = createIdentitySweeper(db, {
    intervalSeconds: config.IDENTITY_SWEEP_INTERVAL_SECONDS,
    throttleForgetSeconds: DEFAULT_LOGIN_THROTTLE.forgetAfterSeconds,
    idempotencyRetentionMs: DEFAULT_IDEMPOTENCY.retentionMs,
    throttleWindowSeconds: Math.max(config.SIGNUP_RATE_LIMIT_WINDOW_SECONDS, config.SSO_AUTHORIZE_RATE_LIMIT_WINDOW_SECONDS),
    log,
  });
  return { local, authenticate: authenticator.authenticate, credentials, sessionExpiry, sweeper, repositories: { members, users, purges }, withIdentityEvents };
}
