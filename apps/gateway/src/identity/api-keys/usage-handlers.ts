import { AppError } from "@hearth/contracts";
import { rateLimitBucket, type RateLimiter } from "../../http/rate-limiter";
import { requireActor, type LocalHandler } from "../local-handlers";
import type { ApiKeyRepository } from "./api-key-repository";
import { toApiKeyUsageResource } from "./api-key-resource";

/** Sure's text for an OAuth token, which has no per-key usage to show (Hearth's bearer tokens are its OAuth tokens). */
const BEARER_NOTICE = { authentication_method: "oauth", message: "Detailed usage tracking is available for API key authentication" } as const;

/** GET /api/v1/usage: the calling API key and its rate-limit window, read from the limiter that enforces it. */
export function createUsageHandlers(apiKeys: ApiKeyRepository, rateLimiter: RateLimiter) {
  const get: LocalHandler<"usage.get"> = async ({ actor }) => {
    const caller = requireActor(actor);
    if (caller.authMethod === "bearer") return BEARER_NOTICE;
    if (!caller.apiKeyId) throw new Error("API-key actor without apiKeyId");
    const [key, usage] = await Promise.all([
      apiKeys.findLive(caller.apiKeyId),
      // The same bucket the request was just counted in, so this request is part of the count.
      rateLimiter.usage(rateLimitBucket(caller)),
    ]);
    // Revoked after authentication, while this request was under way.
    if (!key) throw new AppError("unauthorized", { message: "API key is invalid or revoked" });
    return toApiKeyUsageResource(key, usage);
  };

  return { "usage.get": get };
}
