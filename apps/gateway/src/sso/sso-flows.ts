import { AppError, type AuditEventType } from "@hearth/contracts";
import type { Prisma } from "../generated/prisma/client";
import type { IdentityDb } from "../db";
import type { SecretBox } from "../crypto/secret-box";
import { randomSecret, sha256 } from "../auth/secrets";
import { recordIdentityEvent } from "../events/identity-events";
import type { RequestFacts } from "../local-handlers";
import { OidcError, type IdTokenClaims, type OidcClient } from "./oidc-client";
import type { ProviderRow } from "./provider-resource";
import { syncRoleFromClaims } from "./role-sync";

const FLOW_TTL_MS = 10 * 60_000;
/** Sure: the one-time code is single-use and expires after 5 minutes. */
export const TICKET_TTL_MS = 5 * 60_000;
export const CALLBACK_PATH = "/api/v1/auth/sso/callback";

export interface SsoFlowSettings {
  /** Where the gateway is reached publicly; unset = as the request reached it. */
  publicUrl: string | undefined;
  /** Deep links the app may be sent back to. */
  appRedirectUris: string[];
}

/** The claims a ticket keeps of a verified ID token: who, and what decides their role. */
export interface TicketClaims {
  sub: string;
  email: string | null;
  emailVerified: boolean;
  firstName: string | null;
  lastName: string | null;
  roleClaim: unknown;
}

interface FlowStart {
  purpose: "login" | "test";
  appRedirectUri: string;
  startedById: string | null;
  device: Prisma.InputJsonValue | null;
}

const text = (value: unknown): string | null => (typeof value === "string" && value.length > 0 ? value : null);

function ticketClaimsOf(claims: IdTokenClaims, provider: ProviderRow): TicketClaims {
  return {
    sub: claims.sub,
    email: text(claims["email"])?.toLowerCase() ?? null,
    emailVerified: claims["email_verified"] === true,
    firstName: text(claims["given_name"]),
    lastName: text(claims["family_name"]),
    roleClaim: provider.roleClaim ? (claims[provider.roleClaim] ?? null) : null,
  };
}

/**
 * The browser part of SSO: start a flow (state, nonce and PKCE verifier kept server-side),
 * then finish it at the callback: redeem the code, verify the ID token, and send the browser
 * back to the app with a one-time `code` (a linked user) or `linking_code` (link or create).
 */
export function createSsoFlows(db: IdentityDb, box: SecretBox, oidc: OidcClient, settings: SsoFlowSettings, onEventsWritten: () => void) {
  const callbackUrl = (request: RequestFacts) => `${settings.publicUrl ?? request.baseUrl}${CALLBACK_PATH}`;
  const allowedRedirect = (uri: string) =>
    settings.appRedirectUris.some((allowed) => uri === allowed || ((allowed.endsWith("/") || allowed.endsWith("?")) && uri.startsWith(allowed)));
  const appUrl = (base: string, params: Record<string, string>) => {
    const url = new URL(base);
    for (const [key, value] of Object.entries(params)) url.searchParams.set(key, value);
    return { location: url.toString() };
  };
  const publicSettings = (provider: ProviderRow) => ({ issuer: provider.issuer, clientId: provider.clientId, scopes: provider.scopes });
  // The secret is unsealed only to redeem a code, the one request that sends it.
  const clientSettings = (provider: ProviderRow) => ({ ...publicSettings(provider), clientSecret: box.open(provider.clientSecret) });

  async function record(
    eventType: AuditEventType,
    provider: ProviderRow,
    request: RequestFacts,
    facts: { user?: { id: string; email: string } | null; error?: string },
  ) {
    await db.$transaction((tx) =>
      recordIdentityEvent(tx, eventType, {
        familyId: provider.familyId,
        user: facts.user ?? null,
        request,
        provider: provider.name,
        providerId: provider.id,
        ...(facts.error ? { error: facts.error } : {}),
      }),
    );
    onEventsWritten();
  }

  async function issueTicket(kind: "exchange" | "linking", provider: ProviderRow, claims: TicketClaims, device: Prisma.JsonValue, userId: string | null) {
    const code = randomSecret(kind === "exchange" ? "hsso_" : "hlnk_", 24);
    await db.ssoTicket.create({
      data: {
        codeHash: sha256(code),
        kind,
        providerId: provider.id,
        userId,
        claims: claims as unknown as Prisma.InputJsonObject,
        device: device ?? {},
        expiresAt: new Date(Date.now() + TICKET_TTL_MS),
      },
    });
    return code;
  }

  async function start(provider: ProviderRow, flow: FlowStart, request: RequestFacts) {
    if (!allowedRedirect(flow.appRedirectUri)) throw AppError.validation(["Redirect uri is not allowed"]);
    const state = randomSecret("", 24);
    const nonce = randomSecret("", 24);
    const codeVerifier = randomSecret("", 48);
    const redirectUri = callbackUrl(request);
    let authorizationUrl: string;
    try {
      authorizationUrl = await oidc.authorizationUrl(publicSettings(provider), { state, nonce, codeVerifier, redirectUri });
    } catch (err) {
      if (err instanceof OidcError) throw new AppError("service_unavailable", { message: "The SSO provider cannot be reached" });
      throw err;
    }
    await db.ssoFlow.create({
      data: {
        providerId: provider.id,
        stateHash: sha256(state),
        nonce,
        codeVerifier: box.seal(codeVerifier),
        callbackUrl: redirectUri,
        appRedirectUri: flow.appRedirectUri,
        purpose: flow.purpose,
        startedById: flow.startedById,
        device: flow.device ?? undefined,
        expiresAt: new Date(Date.now() + FLOW_TTL_MS),
      },
    });
    return { authorization_url: authorizationUrl };
  }

  /** The provider's redirect back. Only a live, unused state of ours leads anywhere. */
  async function complete(input: { state?: string | undefined; code?: string | undefined; error?: string | undefined }, request: RequestFacts) {
    const now = new Date();
    const flow = input.state ? await db.ssoFlow.findUnique({ where: { stateHash: sha256(input.state) }, include: { provider: true } }) : null;
    const claimed = flow && flow.expiresAt > now ? await db.ssoFlow.updateMany({ where: { id: flow.id, consumedAt: null }, data: { consumedAt: now } }) : null;
    if (!flow || claimed?.count !== 1) throw new AppError("bad_request", { message: "Unknown, used or expired sign-in attempt: start again" });
    const { provider } = flow;
    const testing = flow.purpose === "test";
    /** A test's outcome is recorded as provider.test for the admin who started it. */
    const recordTest = async (error?: string) => {
      const admin = flow.startedById ? await db.user.findUnique({ where: { id: flow.startedById }, select: { id: true, email: true } }) : null;
      await record("provider.test", provider, request, { user: admin, ...(error ? { error } : {}) });
    };
    const fail = async (error: string, appError: string) => {
      if (testing) {
        await recordTest(error);
        return appUrl(flow.appRedirectUri, { sso_test: "failed", error: appError });
      }
      await record("auth.login.failed", provider, request, { error });
      return appUrl(flow.appRedirectUri, { error: appError });
    };

    if (!testing && !provider.enabled) return fail("provider_disabled", "provider_disabled");
    if (input.error || !input.code) return fail(`provider_error:${input.error ?? "no_code"}`, "sso_failed");
    let claims: TicketClaims;
    try {
      const verified = await oidc.redeem(clientSettings(provider), {
        code: input.code,
        codeVerifier: box.open(flow.codeVerifier),
        redirectUri: flow.callbackUrl,
        nonce: flow.nonce,
      });
      claims = ticketClaimsOf(verified, provider);
    } catch (err) {
      if (err instanceof OidcError) return fail(err.reason, "sso_failed");
      throw err;
    }

    if (testing) {
      await recordTest();
      return appUrl(flow.appRedirectUri, { sso_test: "ok", ...(claims.email ? { email: claims.email } : {}) });
    }

    const identity = await db.ssoIdentity.findUnique({
      where: { providerId_subject: { providerId: provider.id, subject: claims.sub } },
      include: { user: { include: { membership: true } } },
    });
    if (!identity) {
      const linkingCode = await issueTicket("linking", provider, claims, flow.device, null);
      return appUrl(flow.appRedirectUri, {
        linking_code: linkingCode,
        ...(claims.email ? { email: claims.email } : {}),
        allow_account_creation: String(provider.allowAccountCreation),
      });
    }
    const user = identity.user;
    if (user.suspendedAt) return fail("user_suspended", "account_suspended");
    if (user.membership) await syncRoleFromClaims(db, provider, user, user.membership.role, claims.roleClaim, request, onEventsWritten);
    const code = await issueTicket("exchange", provider, claims, flow.device, user.id);
    return appUrl(flow.appRedirectUri, { code });
  }

  return { start, complete, allowedRedirect };
}
export type SsoFlows = ReturnType<typeof createSsoFlows>;
