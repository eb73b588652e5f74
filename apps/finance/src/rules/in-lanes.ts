/**
 * Runs `work` over the items, at most `lanes` at a time, in order of starting. After a failure no
 * further item starts; the ones under way finish, then the first error is thrown.
 */
export async function inLanes<T>(items: readonly T[], lanes: number, work: (item: T) => Promise<void>): Promise<void> {
  let next = 0;
  let failure: { error: unknown } | null = null;
  const lane = async () => {
    while (failure === null && next < items.length) {
      const item = items[next++]!;
      try {
        await work(item);
      } catch (error) {
        failure ??= { error };
      }
    }
  };
  await Promise.all(Array.from({ length: Math.max(1, Math.min(lanes, items.length)) }, lane));
  if (failure !== null) throw (failure as { error: unknown }).error;
}
