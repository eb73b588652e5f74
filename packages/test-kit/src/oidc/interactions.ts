import type { IncomingMessage, ServerResponse } from "node:http";
import type Provider from "oidc-provider";
import type { InteractionResults } from "oidc-provider";

/** Where oidc-provider sends the browser when it needs a login or a consent. */
export const interactionPath = (uid: string) => `/interaction/${uid}`;

const interactionRoute = /^\/interaction\/[^/]+$/;

/** True when the request is for the interaction route this module answers. */
export function isInteractionRequest(req: IncomingMessage, url: URL): boolean {
  return req.method === "GET" && interactionRoute.test(url.pathname);
}

/**
 * Our stand-in for a login page and a consent page, with no HTML: `GET /interaction/<uid>?sub=...`
 * logs that account in (login prompt) or grants what the client asked for (consent prompt), then
 * hands the result to oidc-provider, which answers with a redirect back to the authorization
 * endpoint. An unknown `sub` ends the flow with `access_denied`, as a refused login would.
 */
export async function handleInteraction(
  provider: Provider,
  knownSubject: (sub: string) => boolean,
  req: IncomingMessage,
  res: ServerResponse,
  url: URL,
): Promise<void> {
  const details = await provider.interactionDetails(req, res);
  let result: InteractionResults;
  switch (details.prompt.name) {
    case "login": {
      const sub = url.searchParams.get("sub") ?? "";
      result = knownSubject(sub)
        ? { login: { accountId: sub } }
        : { error: "access_denied", error_description: `no test user with sub ${JSON.stringify(sub)}` };
      break;
    }
    case "consent": {
      const accountId = details.session?.accountId;
      const clientId = details.params.client_id;
      if (!accountId || typeof clientId !== "string") throw new Error("consent prompt without a logged-in account or a client");
      const grant = details.grantId ? await provider.Grant.find(details.grantId) : new provider.Grant({ accountId, clientId });
      if (!grant) throw new Error(`grant ${details.grantId} not found`);
      const missing = details.prompt.details;
      const scopes = stringList(missing.missingOIDCScope);
      if (scopes.length) grant.addOIDCScope(scopes.join(" "));
      const claims = stringList(missing.missingOIDCClaims);
      if (claims.length) grant.addOIDCClaims(claims);
      for (const [resource, resourceScopes] of Object.entries(asRecord(missing.missingResourceScopes))) {
        grant.addResourceScope(resource, stringList(resourceScopes).join(" "));
      }
      const grantId = await grant.save();
      result = { consent: details.grantId ? {} : { grantId } };
      break;
    }
    default:
      throw new Error(`unsupported interaction prompt ${details.prompt.name}`);
  }
  // As in oidc-provider's example: a login starts afresh, a consent adds to what was submitted.
  await provider.interactionFinished(req, res, result, { mergeWithLastSubmission: details.prompt.name === "consent" });
}

function stringList(value: unknown): string[] {
  return Array.isArray(value) ? value.filter((item): item is string => typeof item === "string") : [];
}

function asRecord(value: unknown): Record<string, unknown> {
  return typeof value === "object" && value !== null ? (value as Record<string, unknown>) : {};
}
