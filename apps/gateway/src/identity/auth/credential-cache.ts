/**
 * Credential state (an API key's actor, a session's state) kept in memory, so a request's
 * authentication needs no database round trip. An entry is dropped as soon as PostgreSQL
 * announces a change of its user (credential-changes.ts: a revoked key or session, a suspension,
 * a role or family change, a deletion); while that announcement channel is down nothing is
 * served from memory. `maxAgeMs` bounds an entry's life in any case.
 */
export interface CredentialCache<T> {
  get(key: string, now?: number): T | undefined;
  /** Taken before reading a value from the database, and given back to `set`. */
  ticket(): number;
  /** Keeps a value read after `ticket`, unless its user changed (or the feed restarted) since. */
  set(key: string, userId: string, value: T, ticket: number, now?: number): void;
  /** Replaces a cached value (e.g. a newer last-used time) without extending its life. */
  update(key: string, value: T): void;
  dropUser(userId: string): void;
  /** Off: every read misses and nothing is kept (the change feed is down). On: starts empty. */
  setLive(live: boolean): void;
  readonly size: number;
}

interface Entry<T> {
  value: T;
  userId: string;
  storedAt: number;
}

export function createCredentialCache<T>(options: { maxAgeMs: number; maxEntries: number }): CredentialCache<T> {
  const entries = new Map<string, Entry<T>>();
  const keysOfUser = new Map<string, Set<string>>();
  // A read that began before a change of its user must not cache what it read: the change's
  // announcement may have come (and found nothing to drop) while the read was under way.
  let sequence = 0;
  let liveSince = 0;
  const changedAt = new Map<string, { sequence: number; at: number }>();
  let live = false;

  function drop(key: string): void {
    const entry = entries.get(key);
    if (!entry) return;
    entries.delete(key);
    const keys = keysOfUser.get(entry.userId);
    keys?.delete(key);
    if (keys?.size === 0) keysOfUser.delete(entry.userId);
  }

  function clear(): void {
    entries.clear();
    keysOfUser.clear();
  }

  return {
    get(key, now = Date.now()) {
      if (!live) return undefined;
      const entry = entries.get(key);
      if (!entry) return undefined;
      if (now - entry.storedAt > options.maxAgeMs) {
        drop(key);
        return undefined;
      }
      return entry.value;
    },
    ticket() {
      return ++sequence;
    },
    set(key, userId, value, ticket, now = Date.now()) {
      if (!live || ticket <= liveSince || ticket <= (changedAt.get(userId)?.sequence ?? 0)) return;
      drop(key);
      // A Map iterates in insertion order: the oldest entry goes first when full.
      if (entries.size >= options.maxEntries) {
        const oldest = entries.keys().next();
        if (!oldest.done) drop(oldest.value);
      }
      entries.set(key, { value, userId, storedAt: now });
      let keys = keysOfUser.get(userId);
      if (!keys) keysOfUser.set(userId, (keys = new Set()));
      keys.add(key);
    },
    update(key, value) {
      const entry = entries.get(key);
      if (entry) entry.value = value;
    },
    dropUser(userId) {
      for (const key of keysOfUser.get(userId) ?? []) entries.delete(key);
      keysOfUser.delete(userId);
      const now = Date.now();
      changedAt.set(userId, { sequence: ++sequence, at: now });
      // A read lasts far less than maxAgeMs: older change marks can go.
      if (changedAt.size > options.maxEntries) {
        for (const [user, mark] of changedAt) if (now - mark.at > options.maxAgeMs) changedAt.delete(user);
      }
    },
    setLive(next) {
      live = next;
      liveSince = ++sequence;
      clear();
    },
    get size() {
      return entries.size;
    },
  };
}
