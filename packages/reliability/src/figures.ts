import { mkdir, writeFile } from "node:fs/promises";
import path from "node:path";
import { fileURLToPath } from "node:url";
import type { AuditCounts } from "./databases";
import type { LoadResult } from "./load";
import { FULL } from "./settings";

const RESULTS = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..", "results");

/** The figures every scenario reports (README.md describes the file). */
export interface ScenarioFigures {
  scenario: string;
  mode: "short" | "full";
  /** Requests the load sent (every attempt, retries included). */
  requestsSent: number;
  /** Of them, answered with success. */
  requestsSucceeded: number;
  /** Achieved request rate over the load's duration. */
  requestsPerSecond: number;
  /** Answers per status; "0:<code>" is no HTTP answer (connection refused or reset). */
  statuses: Record<string, number>;
  /** Events (or writes) that had to reach their store. */
  eventsProduced: number;
  stored: number;
  lost: number;
  doubled: number;
  /** From the fault's end (or the kill) until everything was back and stored; null: not within the scenario's wait. */
  recoverySeconds: number | null;
  /** Scenario-specific figures. */
  details: Record<string, unknown>;
}

const round = (value: number, digits = 2) => Math.round(value * 10 ** digits) / 10 ** digits;

/** Prints the scenario's one line of figures and writes them to results/<scenario>.json. */
export async function reportFigures(figures: Omit<ScenarioFigures, "mode">): Promise<ScenarioFigures> {
  const full: ScenarioFigures = {
    ...figures,
    mode: FULL ? "full" : "short",
    requestsPerSecond: round(figures.requestsPerSecond, 1),
    recoverySeconds: figures.recoverySeconds === null ? null : round(figures.recoverySeconds),
  };
  console.log(
    `[reliability] ${full.scenario} (${full.mode}): requests sent ${full.requestsSent} (${full.requestsSucceeded} ok, ${full.requestsPerSecond}/s), ` +
      `statuses ${JSON.stringify(full.statuses)}, events produced ${full.eventsProduced}, stored ${full.stored}, lost ${full.lost}, doubled ${full.doubled}, ` +
      `recovery ${full.recoverySeconds === null ? "none" : `${full.recoverySeconds} s`}; ${JSON.stringify(full.details)}`,
  );
  await mkdir(RESULTS, { recursive: true });
  await writeFile(path.join(RESULTS, `${full.scenario}.json`), `${JSON.stringify(full, null, 2)}\n`);
  return full;
}

export const seconds = (fromMs: number, toMs = Date.now()) => (toMs - fromMs) / 1000;

/** The figures of a scenario whose load was audited requests answered 200 and whose store is the audit log. */
export function auditedRunFigures(
  scenario: string,
  result: LoadResult,
  counts: AuditCounts,
  recoverySeconds: number | null,
  details: Record<string, unknown>,
): Omit<ScenarioFigures, "mode"> {
  return {
    scenario,
    requestsSent: result.sent,
    requestsSucceeded: result.tally.count(200),
    requestsPerSecond: result.perSecond,
    statuses: result.tally.counts,
    eventsProduced: counts.produced,
    stored: counts.storedDistinct,
    lost: counts.lost,
    doubled: counts.doubled,
    recoverySeconds,
    details: { storedRows: counts.storedRows, deadLettered: counts.deadLettered, ...details },
  };
}
