// `npm run bench` (reliability part): runs the reliability suite (`npm run test:reliability`, the
// full version: Kafka down 30 s, services SIGKILLed, PostgreSQL and gateways restarted under load,
// see packages/reliability/README.md) and puts each scenario's figures into the report. The
// baseline of each figure is its own scenario's count in the same run: events stored against
// events produced, requests answered against requests sent. BENCH_RELIABILITY=short runs the
// short version CI runs.
import { spawnSync } from "node:child_process";
import { readFile, readdir, rm } from "node:fs/promises";
import { fileURLToPath } from "node:url";
import type { ScenarioFigures } from "@hearth/reliability/figures";
import { saveSection, type BenchFigure } from "./report";

const root = fileURLToPath(new URL("../", import.meta.url));
const results = `${root}packages/reliability/results/`;
const full = process.env["BENCH_RELIABILITY"] !== "short";

await rm(results, { recursive: true, force: true });
const run = spawnSync("npm", ["-w", "@hearth/reliability", "run", full ? "test:full" : "test"], { cwd: root, stdio: "inherit" });
const scenarios: ScenarioFigures[] = [];
for (const file of (await readdir(results).catch(() => [] as string[])).filter((name) => name.endsWith(".json")).sort()) {
  scenarios.push(JSON.parse(await readFile(`${results}${file}`, "utf8")) as ScenarioFigures);
}
if (scenarios.length === 0) throw new Error(`the reliability suite wrote no figures (exit ${run.status ?? run.signal})`);

const figures: BenchFigure[] = scenarios.flatMap((s): BenchFigure[] => {
  const errors = Object.entries(s.statuses)
    .filter(([status]) => status === "500" || status.startsWith("0:"))
    .reduce((sum, [, count]) => sum + count, 0);
  return [
    {
      name: `${s.scenario}: requests answered with success`,
      value: s.requestsSucceeded,
      unit: "requests",
      baseline: { name: `requests sent (${s.requestsPerSecond}/s, statuses ${JSON.stringify(s.statuses)})`, value: s.requestsSent },
    },
    { name: `${s.scenario}: events or writes stored`, value: s.stored, unit: "events", baseline: { name: "produced", value: s.eventsProduced } },
    { name: `${s.scenario}: lost`, value: s.lost, unit: "events", goal: { text: "0", met: s.lost === 0 } },
    { name: `${s.scenario}: stored twice`, value: s.doubled, unit: "events", goal: { text: "0", met: s.doubled === 0 } },
    { name: `${s.scenario}: answers 500 or no answer`, value: errors, unit: "requests" },
    ...(s.recoverySeconds === null ? [] : [{ name: `${s.scenario}: recovery`, value: s.recoverySeconds, unit: "s" }]),
  ];
});
await saveSection({
  id: "reliability",
  title: "Reliability: faults under load, nothing lost",
  method: `The reliability suite (${full ? "full" : "short"} version, packages/reliability): npm start's real processes on a PostgreSQL cluster and a Kafka broker of its own, under a closed loop of 16 clients; each scenario counts in the services' databases what was produced, stored, lost and stored twice. The Kafka outage scenario's rate is what this machine sustained, not the 2,000 requests/s the issue names.`,
  figures,
});
process.exitCode = run.status === 0 ? 0 : 1;
