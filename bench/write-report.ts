// `npm run bench`, last step: joins the sections the benches saved (bench/results/*.json) into
// bench/report.json and bench/report.md, with the machine they ran on.
import { readdir, readFile, writeFile } from "node:fs/promises";
import { availableParallelism, cpus, totalmem } from "node:os";
import { fileURLToPath } from "node:url";
import { RESULTS_DIR, ratioOf, type BenchSection } from "./report";

const ORDER = ["gateway-overhead", "prisma-vs-pg", "audit-pipeline", "cold-start", "login", "ledger", "investments", "reliability", "assistant"];

const names = (await readdir(RESULTS_DIR).catch(() => [] as string[])).filter((name) => name.endsWith(".json"));
const sections = await Promise.all(
  names.map(async (name) => JSON.parse(await readFile(`${RESULTS_DIR}${name}`, "utf8")) as BenchSection & { measuredAt: string }),
);
sections.sort((a, b) => (ORDER.indexOf(a.id) + 1 || 99) - (ORDER.indexOf(b.id) + 1 || 99));

const machine = { cores: availableParallelism(), cpu: cpus()[0]?.model ?? "unknown", memoryGiB: Math.round(totalmem() / 2 ** 30), node: process.version };
const report = {
  generatedAt: new Date().toISOString(),
  machine,
  sections: sections.map((section) => ({ ...section, figures: section.figures.map((figure) => ({ ...figure, ratio: ratioOf(figure) })) })),
};

const number = (value: number) => (Math.abs(value) >= 100 ? value.toFixed(0) : Math.abs(value) >= 10 ? value.toFixed(1) : value.toFixed(2));
const lines = [
  "# Hearth benchmark report",
  "",
  `Written by \`npm run bench\` on ${report.generatedAt}: ${machine.cores} cores (${machine.cpu}), ${machine.memoryGiB} GiB, Node ${machine.node}.`,
  "Every ratio is against a baseline measured in the same run; absolute figures depend on the machine and are context only.",
];
for (const section of report.sections) {
  lines.push(
    "",
    `## ${section.title}`,
    "",
    `${section.method} Measured ${section.measuredAt}.`,
    "",
    "| figure | value | baseline | ratio | goal |",
    "| --- | ---: | --- | ---: | --- |",
  );
  for (const figure of section.figures) {
    const baseline = figure.baseline ? `${figure.baseline.name}: ${number(figure.baseline.value)} ${figure.unit}` : "";
    const ratio = figure.ratio === null ? "" : `${figure.ratio.toFixed(2)}x`;
    const goal = figure.goal ? `${figure.goal.met ? "met" : "NOT met"}: ${figure.goal.text}` : "";
    lines.push(`| ${figure.name} | ${number(figure.value)} ${figure.unit} | ${baseline} | ${ratio} | ${goal} |`);
  }
}
if (report.sections.length === 0) lines.push("", "No bench saved a section: run `npm run bench`.");

const reportDir = fileURLToPath(new URL("./", import.meta.url));
await writeFile(`${reportDir}report.json`, `${JSON.stringify(report, null, 2)}\n`);
await writeFile(`${reportDir}report.md`, `${lines.join("\n")}\n`);
console.log(`bench/report.md and bench/report.json written (${report.sections.length} sections)`);
