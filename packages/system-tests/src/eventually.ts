/** Polls `check` until it stops throwing (or returns without throwing), or fails with its last error. */
export async function eventually<T>(check: () => Promise<T>, { timeoutMs = 20_000, intervalMs = 100 } = {}): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    try {
      return await check();
    } catch (error) {
      if (Date.now() > deadline) throw error;
      await new Promise((resolve) => setTimeout(resolve, intervalMs));
    }
  }
}
