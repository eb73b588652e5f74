import type { OutputOf, Scope } from "@hearth/contracts";
import type { ApiKey } from "../../generated/prisma/client";
import type { RateLimitUsage } from "../../http/rate-limiter";

type ApiKeyResource = OutputOf<"apiKeys.list">["api_keys"][number];
type ApiKeyUsageResource = Extract<OutputOf<"usage.get">, { api_key: unknown }>;

/** Every key has the one configured limit; Sure names its default tier "standard". */
const TIER = "standard";

export function toApiKeyResource(row: Pick<ApiKey, "id" | "name" | "scopes" | "displayKey" | "lastUsedAt" | "createdAt">): ApiKeyResource {
  return {
    id: row.id,
    name: row.name,
    scopes: row.scopes as ApiKeyResource["scopes"],
    display_key: row.displayKey,
    last_used_at: row.lastUsedAt?.toISOString() ?? null,
    created_at: row.createdAt.toISOString(),
  };
}

/** The calling key and its rate-limit window, as GET /api/v1/usage answers them. */
export function toApiKeyUsageResource(key: Pick<ApiKey, "name" | "scopes" | "lastUsedAt" | "createdAt">, usage: RateLimitUsage): ApiKeyUsageResource {
  return {
    api_key: {
      name: key.name,
      scopes: key.scopes as Scope[],
      last_used_at: key.lastUsedAt?.toISOString() ?? null,
      created_at: key.createdAt.toISOString(),
    },
    rate_limit: {
      tier: TIER,
      limit: usage.limit,
      current_count: usage.current,
      remaining: usage.remaining,
      reset_in_seconds: usage.resetInSeconds,
      reset_at: usage.resetAt.toISOString(),
    },
  };
}
