import { AppError, type ApiKey } from "@hearth/contracts";
import type { IdentityDb } from "../db";
import { requireActor, type LocalHandler } from "../local-handlers";
import { randomSecret, sha256 } from "../auth/secrets";

interface ApiKeyRow {
  id: string;
  name: string;
  scopes: string[];
  displayKey: string;
  lastUsedAt: Date | null;
  createdAt: Date;
}

function toApiKeyResource(row: ApiKeyRow): ApiKey {
  return {
    id: row.id,
    name: row.name,
    scopes: row.scopes as ApiKey["scopes"],
    display_key: row.displayKey,
    last_used_at: row.lastUsedAt?.toISOString() ?? null,
    created_at: row.createdAt.toISOString(),
  };
}

/** API key management for the signed-in user (bearer token only): list, create (plain key shown once), revoke. */
export function createApiKeyHandlers(db: IdentityDb) {
  const list: LocalHandler<"apiKeys.list"> = async ({ actor }) => {
    const rows = await db.apiKey.findMany({ where: { userId: requireActor(actor).userId, revokedAt: null }, orderBy: { createdAt: "desc" } });
    return { api_keys: rows.map(toApiKeyResource) };
  };

  const create: LocalHandler<"apiKeys.create"> = async ({ actor, input }) => {
    const key = randomSecret("hk_", 30);
    const row = await db.apiKey.create({
      data: {
        userId: requireActor(actor).userId,
        name: input.api_key.name,
        scopes: input.api_key.scopes,
        keyHash: sha256(key),
        displayKey: `${key.slice(0, 7)}…${key.slice(-4)}`,
      },
    });
    return { ...toApiKeyResource(row), key };
  };

  const revoke: LocalHandler<"apiKeys.revoke"> = async ({ actor, input }) => {
    const { count } = await db.apiKey.updateMany({
      where: { id: input.id, userId: requireActor(actor).userId, revokedAt: null },
      data: { revokedAt: new Date() },
    });
    if (count === 0) throw AppError.notFound("API key");
  };

  return { "apiKeys.list": list, "apiKeys.create": create, "apiKeys.revoke": revoke };
}
