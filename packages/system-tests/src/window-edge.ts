/**
 * Waits, when a fixed rate-limit window (aligned to the epoch, as the gateway's are) ends within
 * `needSeconds`, until the next one has begun: a test that counts up to a limit and expects the
 * next attempt refused must not straddle a window's end, where the count starts again.
 */
export async function clearOfWindowEdge(windowSeconds: number, needSeconds = 60, now = Date.now): Promise<void> {
  const windowMs = windowSeconds * 1000;
  const leftMs = windowMs - (now() % windowMs);
  if (leftMs > needSeconds * 1000) return;
  await new Promise((resolve) => setTimeout(resolve, leftMs + 50));
}
