/**
 * When `npm start` restarts a crashed app: after a delay that doubles with each crash close to
 * the last ones (from `baseDelayMs` to `maxDelayMs`), and not at all once `maxCrashes` crashes
 * fall within `windowMs`: an app that keeps crashing is broken, not unlucky.
 */
export interface RestartPolicyOptions {
  maxCrashes: number;
  windowMs: number;
  baseDelayMs: number;
  maxDelayMs: number;
}

export const DEFAULT_RESTART_POLICY: RestartPolicyOptions = { maxCrashes: 5, windowMs: 120_000, baseDelayMs: 1_000, maxDelayMs: 30_000 };

export type RestartDecision = { restart: true; delayMs: number; crashesInWindow: number } | { restart: false; crashesInWindow: number };

export function createRestartPolicy(options: RestartPolicyOptions = DEFAULT_RESTART_POLICY) {
  let crashes: number[] = [];
  return {
    /** Records a crash at `now` and answers whether, and after how long, to start the app again. */
    afterCrash(now = Date.now()): RestartDecision {
      crashes = [...crashes.filter((at) => now - at < options.windowMs), now];
      const count = crashes.length;
      if (count >= options.maxCrashes) return { restart: false, crashesInWindow: count };
      return { restart: true, delayMs: Math.min(options.maxDelayMs, options.baseDelayMs * 2 ** (count - 1)), crashesInWindow: count };
    },
  };
}
