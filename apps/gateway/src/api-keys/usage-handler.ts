import { AppError, type ApiKeyUsage, type Scope } from "@hearth/contracts";
import type { IdentityDb } from "../db";
import { rateLimitBucket, type RateLimiter } from "../http/rate-limiter";
import { requireActor, type LocalHandler } from "../local-handlers";

/** Every key has the one configured limit; Sure names its default tier "standard". */
const TIER = "standard";

/** Sure's text for an OAuth token, which has no per-key usage to show (Hearth's bearer tokens are its OAuth tokens). */
const BEARER_NOTICE = { authentication_method: "oauth", message: "Detailed usage tracking is available for API key authentication" } as const;

/** GET /api/v1/usage: the calling API key and its rate-limit window, read from the limiter that enforces it. */
export function createUsageHandler(db: IdentityDb, rateLimiter: RateLimiter) {
  const get: LocalHandler<"usage.get"> = async ({ actor }) => {
    const caller = requireActor(actor);
    if (caller.authMethod === "bearer") return BEARER_NOTICE;
    if (!caller.apiKeyId) throw new Error("API-key actor without apiKeyId");
    const [key, usage] = await Promise.all([
      db.apiKey.findFirst({ where: { id: caller.apiKeyId, revokedAt: null }, select: { name: true, scopes: true, lastUsedAt: true, createdAt: true } }),
      // The same bucket the request was just counted in, so this request is part of the count.
      rateLimiter.usage(rateLimitBucket(caller)),
    ]);
    // Revoked after authentication, while this request was under way.
    if (!key) throw new AppError("unauthorized", { message: "API key is invalid or revoked" });
    const answer: ApiKeyUsage = {
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
    return answer;
  };

  return { "usage.get": get };
}
