import { AppError, routes, type AuditEventType, type InputOf } from "@hearth/contracts";
import type { SecretBox } from "@hearth/service-kit";
import { randomSecret, sha256 } from "../../crypto/secrets";
import type { WithIdentityEvents } from "../audit/identity-events";
import type { RequestFacts } from "../local-handlers";
import type { DeviceFacts } from "../sessions/session-repository";
import type { SsoProviderRow } from "../sso-providers/sso-provider-repository";
import { OidcError, type OidcClient } from "./oidc-client";
import type { RoleSync } from "./role-sync";
import type { SsoRepository, TicketClaims, TicketKind } from "./sso-repository";
import { ticketClaimsOf } from "./ticket-claims";

const FLOW_TTL_MS = 10 * 60_000;
/** Sure: the one-time code is single-use and expires after 5 minutes. */
export const TICKET_TTL_MS = 5 * 60_000;
const CALLBACK_PATH = routes["sso.callback"].path;

export interface SsoFlowSettings {
  /** Where the gateway is reached publicly; unset = as the request reached it. */
  publicUrl: string | undefined;
  /** Deep links the app may be sent back to. */
  appRedirectUris: string[];
}

export interface SsoFlowDeps {
  sso: SsoRepository;
  box: SecretBox;
  oidc: OidcClient;
  settings: SsoFlowSettings;
  syncRole: RoleSync;
  withIdentityEvents: WithIdentityEvents;
}

interface FlowStart {
  purpose: "login" | "test";
  appRedirectUri: string;
  startedById: string | null;
  device: DeviceFacts | null;
}

/**
 * The answer to a sign-in that could not start. A family's admin (a provider test) is told what
 * is wrong; anyone else only that the provider is at fault (its addresses are not theirs to see).
 */
function startFailure(err: OidcError, purpose: FlowStart["purpose"]): AppError {
  const forAdmin = purpose === "test";
  if (err.reason === "provider_refused") {
    return AppError.validation([
      forAdmin
        ? `The SSO provider is refused: ${err.detail}${err.privateAddress ? "; the server's operator may allow private addresses with SSO_ALLOW_PRIVATE_ISSUERS" : ""}`
        : "This SSO provider's address is not allowed: an administrator must change its settings",
    ]);
  }
  if (err.reason === "provider_invalid") {
    return new AppError("service_unavailable", {
      message: forAdmin
        ? `The SSO provider answered something unusable: ${err.detail}`
        : "The SSO provider answered something unusable (too large or malformed)",
    });
  }
  return new AppError("service_unavailable", {
    message: forAdmin ? `The SSO provider cannot be reached: ${err.detail}` : "The SSO provider cannot be reached",
  });
}

/**
 * The browser part of SSO: start a flow (state, nonce and PKCE verifier kept server-side),
 * then finish it at the callback: redeem the code, verify the ID token, and send the browser
 * back to the app with a one-time `code` (a linked user) or `linking_code` (link or create).
 */
export function createSsoFlows({ sso, box, oidc, settings, syncRole, withIdentityEvents }: SsoFlowDeps) {
  const callbackUrl = (request: RequestFacts) => `${settings.publicUrl ?? request.baseUrl}${CALLBACK_PATH}`;
  const allowedRedirect = (uri: string) =>
    settings.appRedirectUris.some((allowed) => uri === allowed || ((allowed.endsWith("/") || allowed.endsWith("?")) && uri.startsWith(allowed)));
  const appUrl = (base: string, params: Record<string, string>) => {
    const url = new URL(base);
    for (const [key, value] of Object.entries(params)) url.searchParams.set(key, value);
    return { location: url.toString() };
  };
  const publicSettings = (provider: SsoProviderRow) => ({ issuer: provider.issuer, clientId: provider.clientId, scopes: provider.scopes });
  // The secret is unsealed only to redeem a code, the one request that sends it.
  const clientSettings = (provider: SsoProviderRow) => ({ ...publicSettings(provider), clientSecret: box.open(provider.clientSecret) });

  /** An outcome of the callback, written before the browser is sent back (a failure included). */
  const record = (
    eventType: AuditEventType,
    provider: SsoProviderRow,
    request: RequestFacts,
    facts: { user?: { id: string; email: string } | null; error?: string },
  ) =>
    withIdentityEvents(request, async (_tx, recordEvent) =>
      recordEvent(eventType, {
        familyId: provider.familyId,
        user: facts.user ?? null,
        provider: provider.name,
        providerId: provider.id,
        ...(facts.error ? { error: facts.error } : {}),
      }),
    );

  async function issueTicket(kind: TicketKind, provider: SsoProviderRow, claims: TicketClaims, device: DeviceFacts | null, userId: string | null) {
    const code = randomSecret(kind === "exchange" ? "hsso_" : "hlnk_", 24);
    await sso.createTicket({ codeHash: sha256(code), kind, providerId: provider.id, userId, claims, device, expiresAt: new Date(Date.now() + TICKET_TTL_MS) });
    return code;
  }

  async function start(provider: SsoProviderRow, flow: FlowStart, request: RequestFacts) {
    if (!allowedRedirect(flow.appRedirectUri)) throw AppError.validation(["Redirect uri is not allowed"]);
    const state = randomSecret("", 24);
    const nonce = randomSecret("", 24);
    const codeVerifier = randomSecret("", 48);
    const redirectUri = callbackUrl(request);
    let authorizationUrl: string;
    try {
      authorizationUrl = await oidc.authorizationUrl(publicSettings(provider), { state, nonce, codeVerifier, redirectUri });
    } catch (err) {
      if (err instanceof OidcError) throw startFailure(err, flow.purpose);
      throw err;
    }
    await sso.createFlow({
      providerId: provider.id,
      stateHash: sha256(state),
      nonce,
      codeVerifier: box.seal(codeVerifier),
      callbackUrl: redirectUri,
      appRedirectUri: flow.appRedirectUri,
      purpose: flow.purpose,
      startedById: flow.startedById,
      device: flow.device,
      expiresAt: new Date(Date.now() + FLOW_TTL_MS),
    });
    return { authorization_url: authorizationUrl };
  }

  /** The provider's redirect back. Only a live, unused state of ours leads anywhere. */
  async function complete(input: InputOf<"sso.callback">, request: RequestFacts) {
    const now = new Date();
    const flow = input.state ? await sso.findFlow(sha256(input.state)) : null;
    const claimed = flow && flow.expiresAt > now ? await sso.consumeFlow(flow.id, now) : false;
    if (!flow || !claimed) throw new AppError("bad_request", { message: "Unknown, used or expired sign-in attempt: start again" });
    const { provider } = flow;
    const testing = flow.purpose === "test";
    /** A test's outcome is recorded as provider.test for the admin who started it. */
    const recordTest = async (error?: string) => {
      const admin = flow.startedById ? await sso.findUserRef(flow.startedById) : null;
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

    const identity = await sso.findLinkedIdentity(provider.id, claims.sub);
    if (!identity) {
      const linkingCode = await issueTicket("linking", provider, claims, flow.device, null);
      // Sure's handle_mobile_sso_onboarding: its app starts the link-or-create screen on `status`
      // (auth_service.dart 424-434), and fills it from the names and the invitation flag.
      return appUrl(flow.appRedirectUri, {
        status: "account_not_linked",
        linking_code: linkingCode,
        ...(claims.email ? { email: claims.email } : {}),
        ...(claims.firstName ? { first_name: claims.firstName } : {}),
        ...(claims.lastName ? { last_name: claims.lastName } : {}),
        allow_account_creation: String(provider.allowAccountCreation),
        // Only the provider's own family's invitations, and only for an email the provider vouches for:
        // otherwise a provider of one family could ask about another's invitations.
        has_pending_invitation: String(claims.email && claims.emailVerified ? await sso.hasPendingInvitation(provider.familyId, claims.email) : false),
      });
    }
    const user = identity.user;
    if (user.suspendedAt) return fail("user_suspended", "account_suspended");
    if (user.membership) await syncRole(provider, user, user.membership.role, claims.roleClaim, request);
    const code = await issueTicket("exchange", provider, claims, flow.device, user.id);
    return appUrl(flow.appRedirectUri, { code });
  }

  return { start, complete, allowedRedirect };
}
export type SsoFlows = ReturnType<typeof createSsoFlows>;
