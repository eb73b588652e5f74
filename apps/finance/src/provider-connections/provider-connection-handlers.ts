import { AppError, PROVIDER_CONNECTION_LIMIT, type BodyOf } from "@hearth/contracts";
import { OutboundRefused, type RouteHandlers } from "@hearth/service-kit";
import type { ProviderConnectionRepository } from "./provider-connection-repository";
import { toProviderConnectionResource } from "./provider-connection-resource";
import {
  CredentialsInvalid,
  checkedAccessUrl,
  claimUrlOfSetupToken,
  destinationOf,
  type CredentialStore,
  type SimplefinCredentials,
} from "./simplefin-credentials";

type Handlers = Pick<
  RouteHandlers<"finance">,
  "providerConnections.list" | "providerConnections.create" | "providerConnections.sync" | "providerConnections.delete"
>;

export interface ProviderConnectionHandlerDeps {
  connections: ProviderConnectionRepository;
  credentials: CredentialStore;
  /** The address policy's verdict on a URL's form (scheme, literal address); throws OutboundRefused. */
  checkDestination(url: string): void;
  /** A sync was queued: the worker may start at once. */
  queued(): void;
}

const DEFAULT_NAME = "SimpleFIN Connection";

/** The credentials a registration names, checked; 422 with why (never repeating them) otherwise. */
function credentialsOf(body: BodyOf<"providerConnections.create">["provider_connection"], checkDestination: (url: string) => void): SimplefinCredentials {
  let credentials: SimplefinCredentials;
  try {
    credentials =
      body.setup_token !== undefined
        ? { kind: "claim_url", url: claimUrlOfSetupToken(body.setup_token) }
        : { kind: "access_url", url: checkedAccessUrl(body.access_url ?? "") };
  } catch (err) {
    if (err instanceof CredentialsInvalid) throw AppError.validation([err.message]);
    throw err;
  }
  try {
    checkDestination(destinationOf(credentials));
  } catch (err) {
    const what = credentials.kind === "claim_url" ? "setup token's claim URL" : "access URL";
    if (err instanceof OutboundRefused) throw AppError.validation([`The ${what} is not allowed: it ${err.message}`]);
    throw err;
  }
  return credentials;
}

/**
 * Provider connections (Sure's ProviderConnectionStatus, plus our registration of SimpleFIN
 * Bridge connections): the list the spec names, a registration whose credentials are sealed at
 * once and claimed by the first sync, syncs on request, and removal. No answer carries credentials.
 */
export function createProviderConnectionHandlers(deps: ProviderConnectionHandlerDeps): Handlers {
  const { connections } = deps;
  const shown = async (familyId: string, id: string) => {
    const summary = await connections.find(familyId, id);
    if (!summary) throw AppError.notFound("Provider connection");
    return { data: toProviderConnectionResource(summary) };
  };

  return {
    "providerConnections.list": async ({ ctx }) => {
      const rows = await connections.list(ctx.actor.familyId);
      return { data: rows.map(toProviderConnectionResource) };
    },

    "providerConnections.create": async ({ ctx, input }) => {
      const { familyId } = ctx.actor;
      const body = input.provider_connection;
      const credentials = credentialsOf(body, deps.checkDestination);
      const id = await connections.create(
        familyId,
        {
          provider: body.provider,
          name: body.name ?? DEFAULT_NAME,
          sealedCredentials: deps.credentials.seal(credentials),
          credentialsKind: credentials.kind === "claim_url" ? "setup_token" : "access_url",
        },
        PROVIDER_CONNECTION_LIMIT,
      );
      if (!id) throw AppError.validation([`A family can have at most ${PROVIDER_CONNECTION_LIMIT} provider connections`]);
      deps.queued();
      return shown(familyId, id);
    },

    "providerConnections.sync": async ({ ctx, input }) => {
      if (!(await connections.requestSync(ctx.actor.familyId, input.id))) throw AppError.notFound("Provider connection");
      deps.queued();
      return shown(ctx.actor.familyId, input.id);
    },

    "providerConnections.delete": async ({ ctx, input }) => {
      if (!(await connections.remove(ctx.actor.familyId, input.id))) throw AppError.notFound("Provider connection");
    },
  };
}
