// `npm run bench`: every benchmark of the project, one process each (so one's load, memory and
// leftovers cannot colour the next), then bench/report.md and bench/report.json from what each
// saved. BENCH_ONLY=a,b runs some of them again (file names without .bench.ts); the report keeps
// the other sections of earlier runs, each with the time it was measured. Exit code 1 if a benchmark failed to run or missed its pass/fail goal.
import { spawnSync } from "node:child_process";
import { existsSync } from "node:fs";
import { mkdir, readFile, rm, writeFile } from "node:fs/promises";
import { fileURLToPath } from "node:url";
import { RESULTS_DIR } from "./report";

const BENCHES = [
  "gateway-vs-service",
  "prisma-vs-pg",
  "audit-pipeline",
  "login",
  "ledger",
  "investments",
  "planning",
  "data-in-out",
  "assistant",
  "cold-start",
  "reliability",
  "background-jobs",
  "large-uploads",
  "sync-after-write",
];
const only = process.env["BENCH_ONLY"]?.split(",").map((name) => name.trim());
const here = fileURLToPath(new URL("./", import.meta.url));

if (!only) await rm(RESULTS_DIR, { recursive: true, force: true });
else await restoreSectionsFromReport();
const failed: string[] = [];
for (const name of BENCHES.filter((bench) => !only || only.includes(bench))) {
  console.log(`\n=== ${name} ===`);
  if (!existsSync(`${here}${name}.bench.ts`)) {
    failed.push(`${name} (no bench/${name}.bench.ts)`);
    continue;
  }
  const run = spawnSync(process.execPath, ["--import", "tsx", `${here}${name}.bench.ts`], { stdio: "inherit" });
  if (run.status !== 0) failed.push(`${name} (exit ${run.status ?? run.signal})`);
}
const report = spawnSync(process.execPath, ["--import", "tsx", `${here}write-report.ts`], { stdio: "inherit" });
if (failed.length > 0) console.error(`\nfailed or missed a pass/fail goal: ${failed.join(", ")}`);
process.exitCode = failed.length > 0 || report.status !== 0 ? 1 : 0;

/**
 * With BENCH_ONLY, the sections of the other benches come from the committed report (the results
 * folder is not committed), so the report written at the end still has every section.
 */
async function restoreSectionsFromReport(): Promise<void> {
  const report = JSON.parse(await readFile(`${here}report.json`, "utf8").catch(() => '{"sections":[]}')) as { sections: { id: string }[] };
  await mkdir(RESULTS_DIR, { recursive: true });
  for (const section of report.sections) {
    const file = `${RESULTS_DIR}${section.id}.json`;
    if (!existsSync(file)) await writeFile(file, `${JSON.stringify(section, null, 2)}\n`);
  }
}
