// What the event loop did while a long piece of work ran: how the tests of reads in turns measure it.

/** How often a 5 ms timer fired while `run` ran, and the longest time it was kept waiting. */
export async function timerDuring<T>(run: () => Promise<T>): Promise<{ result: T; ticks: number; longestGapMs: number; tookMs: number }> {
  let ticks = 0;
  let longestGapMs = 0;
  let last = performance.now();
  const timer = setInterval(() => {
    const now = performance.now();
    ticks++;
    longestGapMs = Math.max(longestGapMs, now - last);
    last = now;
  }, 5);
  const started = performance.now();
  try {
    const result = await run();
    const tookMs = performance.now() - started;
    longestGapMs = Math.max(longestGapMs, performance.now() - last);
    return { result, ticks, longestGapMs, tookMs };
  } finally {
    clearInterval(timer);
  }
}
