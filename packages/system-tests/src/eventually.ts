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

/**
 * Repeats a request until it answers `status`, failing after one second: how long a credential
 * change may take to reach every gateway instance (the credential cache's bound). Resolves to the milliseconds taken.
 */
export async function answersWithinOneSecond(request: () => Promise<{ status: number; body: unknown }>, status: number): Promise<number> {
  const started = Date.now();
  for (;;) {
    const answer = await request();
    if (answer.status === status) return Date.now() - started;
    if (Date.now() - started >= 1000) throw new Error(`still ${answer.status} after 1 s: ${JSON.stringify(answer.body)}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}
