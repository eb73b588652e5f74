import { AppError } from "@hearth/contracts";
import type { WithIdentityEvents } from "../audit/identity-events";
import { NO_PASSWORD } from "../auth/passwords";
import { requireActor, type LocalHandler } from "../local-handlers";
import type { SsoIdentityRepository } from "./sso-identity-repository";
import { toSsoIdentityResource } from "./sso-identity-resource";

/** The signed-in user's linked provider accounts. */
export function createSsoIdentityHandlers(identities: SsoIdentityRepository, withIdentityEvents: WithIdentityEvents) {
  const list: LocalHandler<"ssoIdentities.list"> = async ({ actor }) => ({
    sso_identities: (await identities.list(requireActor(actor).userId)).map(toSsoIdentityResource),
  });

  /** Unlinking one of several accounts is account.unlinked; removing the last one disconnects SSO. */
  const unlink: LocalHandler<"ssoIdentities.delete"> = async ({ actor, input, request }) => {
    const { userId, familyId, sessionId } = requireActor(actor);
    await withIdentityEvents(request, async (tx, record) => {
      const identity = await identities.findOwned(tx, userId, input.id);
      if (!identity) throw AppError.notFound("SSO identity");
      const count = await identities.count(tx, userId);
      if (count === 1 && identity.user.passwordHash === NO_PASSWORD) {
        throw AppError.validation(["Set a password before unlinking your last SSO account, or you could not sign in again"]);
      }
      await identities.delete(tx, identity.id);
      record(count > 1 ? "account.unlinked" : "account.disconnected", {
        familyId,
        user: identity.user,
        sessionId,
        provider: identity.provider.name,
        providerId: identity.providerId,
      });
    });
  };

  return { "ssoIdentities.list": list, "ssoIdentities.delete": unlink };
}
