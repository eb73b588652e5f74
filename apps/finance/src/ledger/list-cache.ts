/**
 * What a filtered list costs a full pass to know (its total, its page checkpoints), remembered
 * per family ledger version: counting a million rows for every page would cost more than the
 * page itself. The database bumps the version with every write to the family's ledger, as that
 * write commits (ledger-version-queries.ts), so a remembered value is never stale. A bounded
 * map: the oldest entry leaves first.
 */
export function createListCache(maxEntries = 10_000) {
  const values = new Map<string, unknown>();
  return {
    async remember<T>(key: string, compute: () => Promise<T>): Promise<T> {
      if (values.has(key)) return values.get(key) as T;
      const value = await compute();
      if (values.size >= maxEntries) values.delete(values.keys().next().value!);
      values.set(key, value);
      return value;
    },
  };
}
export type ListCache = ReturnType<typeof createListCache>;
