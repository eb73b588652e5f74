/**
 * Wraps a check so that however many callers ask, it runs at most once per `ttlMs` and at most
 * once at a time: a public, unthrottled probe cannot turn into a flood of database queries or
 * fan-out calls. A failure is cached like a success (for the same short time).
 */
export function cachedCheck<T>(check: () => Promise<T>, ttlMs: number, now: () => number = Date.now): () => Promise<T> {
  let last: { at: number; value: Promise<T> } | null = null;
  return () => {
    if (last && now() - last.at < ttlMs) return last.value;
    const value = check();
    last = { at: now(), value };
    // Cached from when it settles, so a slow check is not re-run by callers arriving while it runs.
    const settled = () => {
      if (last?.value === value) last = { at: now(), value };
    };
    value.then(settled, settled);
    return value;
  };
}
