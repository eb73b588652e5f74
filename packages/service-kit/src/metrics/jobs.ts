import { histogram } from "./registry";

const jobDuration = histogram({
  name: "background_job_duration_seconds",
  help: "Duration of background jobs (balance syncs, ...), by job and outcome (ok or error)",
  labelNames: ["job", "outcome"] as const,
  buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 300, 900],
});

/** Runs `fn`, observing how long it took under `job` (a fixed name: one series per job and outcome). */
export async function observeJob<T>(job: string, fn: () => Promise<T>): Promise<T> {
  const end = jobDuration.startTimer({ job });
  try {
    const result = await fn();
    end({ outcome: "ok" });
    return result;
  } catch (err) {
    end({ outcome: "error" });
    throw err;
  }
}
