// `npm run bench`: how long `npm start` takes to answer 200 on the gateway's /ready, on a fresh
// data directory (PostgreSQL creates its cluster, every migration is applied) and again on the
// same, already-made directory (the baseline: the start without first-run work). Alternated, so
// both see the same machine conditions. bench/cold-start.sh measures to the "Hearth is running"
// line instead, for comparing two checkouts.
import { spawn } from "node:child_process";
import { chmod, mkdtemp, rm } from "node:fs/promises";
import { fileURLToPath } from "node:url";
import { saveSection } from "./report";

const RUNS = Number(process.env.BENCH_COLD_START_RUNS ?? 3);
const PORT = Number(process.env.BENCH_PORT ?? 3901);
const TIMEOUT_MS = 180_000;
const root = fileURLToPath(new URL("../", import.meta.url));

/** Starts `npm start` on the data directory, answers the milliseconds to a 200 from /ready, then stops it. */
async function timeToReady(dataDir: string): Promise<number> {
  const started = performance.now();
  const child = spawn("npm", ["start"], {
    cwd: root,
    env: { ...process.env, HEARTH_DATA_DIR: dataDir, PORT: String(PORT), LOG_LEVEL: "warn" },
    detached: true, // its own process group: stopped as a terminal's Ctrl-C stops it
    stdio: "ignore",
  });
  const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
  try {
    for (;;) {
      if (child.exitCode !== null) throw new Error(`npm start exited with ${child.exitCode} before /ready answered`);
      if (performance.now() - started > TIMEOUT_MS) throw new Error("npm start did not get ready in time");
      const ready = await fetch(`http://127.0.0.1:${PORT}/ready`).then(
        (res) => res.status === 200,
        () => false,
      );
      if (ready) return performance.now() - started;
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  } finally {
    if (child.pid) process.kill(-child.pid, "SIGINT");
    await exited;
  }
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] as number;

const cold: number[] = [];
const warm: number[] = [];
console.log(`npm start to a 200 from /ready, ${RUNS} rounds of a fresh data directory then the same directory again...`);
for (let round = 1; round <= RUNS; round++) {
  const base = await mkdtemp("/tmp/hearth-cold-");
  // As root, PostgreSQL runs as the postgres user and must create its cluster in here.
  await chmod(base, 0o777);
  try {
    const dataDir = `${base}/data`;
    cold.push(await timeToReady(dataDir));
    warm.push(await timeToReady(dataDir));
    console.log(`round ${round}: fresh ${(cold.at(-1)! / 1000).toFixed(2)} s, again ${(warm.at(-1)! / 1000).toFixed(2)} s`);
  } finally {
    await rm(base, { recursive: true, force: true });
  }
}
console.log(`median: fresh ${(median(cold) / 1000).toFixed(2)} s, again ${(median(warm) / 1000).toFixed(2)} s`);
await saveSection({
  id: "cold-start",
  title: "Cold start of npm start",
  method: `Seconds from spawning \`npm start\` to a 200 from the gateway's /ready, median of ${RUNS} alternated rounds: a fresh data directory, then the same directory again (the baseline).`,
  figures: [
    {
      name: "fresh data directory to /ready",
      value: median(cold) / 1000,
      unit: "s",
      baseline: { name: "same directory, second start", value: median(warm) / 1000 },
    },
  ],
});
