// What the event loop did while a long piece of work ran: how the tests of reads in turns measure it.

/**
 * This thread's CPU time so far, in ms (not the process's: other test workers' threads are left
 * out). What a complexity guard ("reads 10 MB in under 5 s") measures: unlike the wall clock, it
 * does not grow while the thread waits for a core on a busy machine.
 */
export const threadCpuMs = () => {
  const { user, system } = process.threadCpuUsage();
  return (user + system) / 1000;
};

/**
 * How often a 5 ms timer fired while `run` ran, the longest time it was kept waiting
 * (`longestGapMs`, wall clock: grows on a busy machine while this thread waits for a core), and
 * the most CPU time this thread spent between two firings (`longestBusyMs`: the longest piece of
 * work that held the loop, whatever else the machine runs). Tests assert on the latter.
 */
export async function timerDuring<T>(
  run: () => Promise<T>,
): Promise<{ result: T; ticks: number; longestGapMs: number; longestBusyMs: number; tookMs: number }> {
  let ticks = 0;
  let longestGapMs = 0;
  let longestBusyMs = 0;
  let last = performance.now();
  let lastCpu = threadCpuMs();
  const note = () => {
    const now = performance.now();
    const cpu = threadCpuMs();
    longestGapMs = Math.max(longestGapMs, now - last);
    longestBusyMs = Math.max(longestBusyMs, cpu - lastCpu);
    last = now;
    lastCpu = cpu;
  };
  const timer = setInterval(() => {
    ticks++;
    note();
  }, 5);
  const started = performance.now();
  try {
    const result = await run();
    const tookMs = performance.now() - started;
    note();
    return { result, ticks, longestGapMs, longestBusyMs, tookMs };
  } finally {
    clearInterval(timer);
  }
}
