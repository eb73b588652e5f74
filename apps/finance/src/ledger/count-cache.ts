/**
 * Totals of filtered lists, remembered per family ledger version: counting a million rows for
 * every page would cost more than the page itself. Any write to the family's ledger bumps its
 * version (same transaction), so a remembered total is never stale; a bounded map, oldest out.
 */
export function createCountCache(maxEntries = 10_000) {
  const totals = new Map<string, number>();
  return {
    async count(key: string, compute: () => Promise<number>): Promise<number> {
      const known = totals.get(key);
      if (known !== undefined) return known;
      const total = await compute();
      if (totals.size >= maxEntries) totals.delete(totals.keys().next().value!);
      totals.set(key, total);
      return total;
    },
  };
}
export type CountCache = ReturnType<typeof createCountCache>;
