// `npm run bench` (planning part, issue 14) on the family of about a million transactions:
// - GET /api/v1/budgets/{id} for each of its 24 monthly periods (target p95 < 100 ms) and
//   GET /api/v1/budget_categories?budget_id= (target p95 < 100 ms), against GET /family_settings;
// - a rule run matching 100,000 of the transactions (target < 10 s);
// - recurring-transaction detection over the whole family (target < 5 s).
// BENCH_LEDGER_PURCHASES (default 1,000,000) sizes the family; BENCH_REQUESTS the samples.
import { performance } from "node:perf_hooks";
import { startTestPostgres } from "@hearth/test-kit";
import { startSystem } from "@hearth/system-tests";
import { seedDemoFamily } from "@hearth/demo-seed";
import { saveSection, type BenchFigure } from "./report";
import { percentile, sequentialGets } from "./sequential-gets";

const PURCHASES = Number(process.env.BENCH_LEDGER_PURCHASES ?? 1_000_000);
const REQUESTS = Number(process.env.BENCH_REQUESTS ?? 200);
const PERIODS = 24;
const fmt = (ms: number) => ms.toFixed(1).padStart(7);

const postgres = await startTestPostgres();
const system = await startSystem({ adminUrl: postgres.adminUrl, gatewayEnv: { RATE_LIMIT_REQUESTS: "1000000000" }, ledgerImport: true });
const db = system.db.finance;
const finance = { url: system.services.finance.url, internalAuthSecret: system.config.INTERNAL_AUTH_SECRET };
try {
  let started = performance.now();
  const family = await seedDemoFamily({
    apiUrl: system.url,
    finance,
    email: `bench-planning-${Date.now()}@hearth.example`,
    password: "Bench-Password-1",
    purchases: PURCHASES,
    log: (line) => console.log(`  ${line}`),
  });
  const transactions = await db.entry.count({ where: { familyId: family.familyId, kind: "transaction" } });
  console.log(`seeded ${transactions.toLocaleString("en")} transactions in ${((performance.now() - started) / 1000).toFixed(1)} s\n`);
  const headers = { authorization: `Bearer ${family.token}`, "content-type": "application/json" };
  const call = async (method: string, path: string, body?: unknown) => {
    const res = await fetch(`${system.url}${path}`, { method, headers, ...(body === undefined ? {} : { body: JSON.stringify(body) }) });
    // eslint-disable-next-line @typescript-eslint/no-explicit-any -- bench glue over untyped JSON answers
    const json = (await res.json().catch(() => null)) as any;
    if (res.status >= 400) throw new Error(`${method} ${path}: ${res.status} ${JSON.stringify(json)}`);
    return json;
  };
  const figures: BenchFigure[] = [];
  const sample = async (path: string) => (await sequentialGets(`${system.url}${path}`, headers, REQUESTS)).times;
  const baseline = await sample("/api/v1/family_settings");
  const baseP95 = percentile(baseline, 95);
  console.log(`GET /family_settings (baseline): p95 ${fmt(baseP95)} ms`);

  // Budgets: one per monthly period of the two seeded years, each with a limit on every category.
  const today = new Date().toISOString().slice(0, 10);
  const budgetIds: string[] = [];
  for (let back = 0; back < PERIODS; back++) {
    const month = new Date(`${today.slice(0, 7)}-01T00:00:00Z`);
    month.setUTCMonth(month.getUTCMonth() - back);
    const budget = await call("POST", "/api/v1/budgets", { budget: { start_date: month.toISOString().slice(0, 10) } });
    await call("PATCH", `/api/v1/budgets/${budget.id}`, { budget: { budgeted_spending: "5000", expected_income: "6000" } });
    budgetIds.push(budget.id);
  }
  const lines = (await call("GET", `/api/v1/budget_categories?budget_id=${budgetIds[0]}&per_page=100`)).budget_categories as { id: string }[];
  for (const line of lines.slice(0, 10)) await call("PATCH", `/api/v1/budget_categories/${line.id}`, { budget_category: { budgeted_spending: "300" } });
  const spendingOf = await call("GET", `/api/v1/budgets/${budgetIds[1]}`);
  console.log(`last month's budget: actual spending ${spendingOf.actual_spending}, income ${spendingOf.actual_income}`);

  // Sequential GETs cycling through the 24 budgets (REQUESTS after the warm-up, spread evenly).
  const cycled = async (paths: string[]) => {
    const times: number[] = [];
    for (let i = 0; i < 20 + REQUESTS; i++) {
      const began = performance.now();
      const res = await fetch(`${system.url}${paths[i % paths.length]}`, { headers });
      await res.arrayBuffer();
      if (res.status !== 200) throw new Error(`${paths[i % paths.length]}: ${res.status}`);
      if (i >= 20) times.push(performance.now() - began);
    }
    return times.sort((a, b) => a - b);
  };
  for (const [name, paths] of [
    ["GET /budgets/{id}, any of 24 periods", budgetIds.map((id) => `/api/v1/budgets/${id}`)],
    ["GET /budget_categories?budget_id=, any of 24 periods", budgetIds.map((id) => `/api/v1/budget_categories?budget_id=${id}`)],
  ] as const) {
    const times = await cycled([...paths]);
    const p95 = percentile(times, 95);
    console.log(`${name}: p50 ${fmt(percentile(times, 50))} p95 ${fmt(p95)} ms (target < 100 ms); ${(p95 / baseP95).toFixed(2)}x the baseline`);
    figures.push({
      name: `p95 of ${name}`,
      value: p95,
      unit: "ms",
      baseline: { name: "GET /family_settings", value: baseP95 },
      goal: { text: "< 100 ms", met: p95 < 100 },
    });
  }

  started = performance.now();
  // RULES_AND_RECURRING

  await saveSection({
    id: "planning",
    title: "Planning: budgets, rule runs and recurring detection on the large family",
    method: `A family of ${transactions.toLocaleString("en")} transactions over two years (the demo seed). GETs sequential through the gateway with a bearer token (${REQUESTS} after 20 warm-up, cycling through the ${PERIODS} budgets), against GET /family_settings in the same run.`,
    figures,
  });
  if (figures.some((figure) => figure.goal && !figure.goal.met)) process.exitCode = 1;
} finally {
  await system.stop();
  await postgres.stop();
}
