import type { Logger } from "@hearth/service-kit";
import type { ApiKeyActorRow } from "../api-keys/api-key-repository";
import type { SessionState } from "../sessions/session-repository";
import type { AuthenticatorCaches } from "./authenticator";
import { createCredentialCache } from "./credential-cache";
import { createCredentialChangeFeed } from "./credential-changes";

// A bound in case an announcement is ever lost in a way the feed cannot see; changes normally
// reach every gateway instance within milliseconds of their commit.
const MAX_AGE_MS = 60_000;
const MAX_ENTRIES = 20_000;

/** The authenticator's in-memory credential state and the feed that keeps it true. */
export function createCredentialState(options: { databaseUrl: string; log: Logger }) {
  const caches: AuthenticatorCaches = {
    apiKeys: createCredentialCache<ApiKeyActorRow>({ maxAgeMs: MAX_AGE_MS, maxEntries: MAX_ENTRIES }),
    sessions: createCredentialCache<SessionState>({ maxAgeMs: MAX_AGE_MS, maxEntries: MAX_ENTRIES }),
  };
  const all = [caches.apiKeys, caches.sessions];
  const feed = createCredentialChangeFeed({
    databaseUrl: options.databaseUrl,
    log: options.log,
    onChange: (userId) => all.forEach((cache) => cache.dropUser(userId)),
    onLive: (live) => all.forEach((cache) => cache.setLive(live)),
  });
  return {
    caches,
    /** This instance's own changes, dropped as soon as they commit (the feed brings every other instance's). */
    dropUsers: (userIds: readonly string[]) => userIds.forEach((userId) => all.forEach((cache) => cache.dropUser(userId))),
    start: feed.start,
    stop: feed.stop,
  };
}
