// One benchmark report: every bench of `npm run bench` saves its section here as it
// finishes (bench/results/<id>.json), and bench/write-report.ts joins them into bench/report.md
// and bench/report.json. Each figure is a ratio against a baseline measured in the same run; the
// absolute values are kept beside it as context, since they depend on the machine.
import { mkdir, writeFile } from "node:fs/promises";
import { fileURLToPath } from "node:url";

export const RESULTS_DIR = fileURLToPath(new URL("./results/", import.meta.url));

export interface BenchFigure {
  /** What was measured, e.g. "throughput through the gateway, 10 connections". */
  name: string;
  value: number;
  unit: string;
  /** The baseline's figure of the same kind, measured in the same run. */
  baseline?: { name: string; value: number };
  /** The goal, in words (e.g. ">= 0.3x the floor"), and whether this run met it. */
  goal?: { text: string; met: boolean };
}

export interface BenchSection {
  id: string;
  title: string;
  /** How the section was measured (tool, durations, concurrency), in a sentence or two. */
  method: string;
  figures: BenchFigure[];
}

/** value / baseline, or null when there is no baseline (or it is zero). */
export function ratioOf(figure: BenchFigure): number | null {
  return figure.baseline && figure.baseline.value !== 0 ? figure.value / figure.baseline.value : null;
}

export async function saveSection(section: BenchSection): Promise<void> {
  await mkdir(RESULTS_DIR, { recursive: true });
  await writeFile(`${RESULTS_DIR}${section.id}.json`, `${JSON.stringify({ ...section, measuredAt: new Date().toISOString() }, null, 2)}\n`);
}
