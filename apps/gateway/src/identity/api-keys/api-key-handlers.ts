import { API_KEYS_PER_USER, AppError } from "@hearth/contracts";
import { randomSecret, sha256 } from "../../crypto/secrets";
import { requireActor, type LocalHandler } from "../local-handlers";
import type { ApiKeyRepository } from "./api-key-repository";
import { toApiKeyResource } from "./api-key-resource";

/** API key management for the signed-in user (bearer token only): list, create (plain key shown once), revoke. */
/** `onRevoked`: drops the user's cached credentials in this instance at once (other instances learn of it by NOTIFY). */
export function createApiKeyHandlers(apiKeys: ApiKeyRepository, onRevoked: (userId: string) => void) {
  const list: LocalHandler<"apiKeys.list"> = async ({ actor }) => {
    const rows = await apiKeys.listLive(requireActor(actor).userId);
    return { api_keys: rows.map(toApiKeyResource) };
  };

  const create: LocalHandler<"apiKeys.create"> = async ({ actor, input }) => {
    const key = randomSecret("hk_", 30);
    const row = await apiKeys.create(
      requireActor(actor).userId,
      { name: input.api_key.name, scopes: input.api_key.scopes, keyHash: sha256(key), displayKey: `${key.slice(0, 7)}…${key.slice(-4)}` },
      API_KEYS_PER_USER,
    );
    if (!row) throw AppError.validation([`A user can have at most ${API_KEYS_PER_USER} active API keys: revoke one first`]);
    return { ...toApiKeyResource(row), key };
  };

  const revoke: LocalHandler<"apiKeys.revoke"> = async ({ actor, input }) => {
    const { userId } = requireActor(actor);
    if (!(await apiKeys.revoke(userId, input.id, new Date()))) throw AppError.notFound("API key");
    // Refused at once by this gateway, not after the change feed's round trip.
    onRevoked(userId);
  };

  return { "apiKeys.list": list, "apiKeys.create": create, "apiKeys.revoke": revoke };
}
