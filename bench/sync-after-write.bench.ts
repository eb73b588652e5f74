// `npm run bench`: sync latency after a write as a household runs Hearth (`npm start`: the gateway
// and finance in processes of their own, where the in-process figure of background-jobs.bench.ts
// puts every service on one event loop). A transaction POSTed through the gateway with an API key,
// then finance's database read every 2 ms until the account's sync completed; SAMPLES writes one
// after the other (after 5 to warm up). The sync's own stamps split the time: created (in the
// write's transaction) to started, started to completed. Run the same file at an older commit for
// a before/after ratio (the job runner must cost nothing measurable here).
import pg from "pg";
import { startHearth } from "./npm-start";
import { saveSection, type BenchFigure } from "./report";

const SAMPLES = Number(process.env.BENCH_SYNC_SAMPLES ?? 60);
const PORT = Number(process.env.BENCH_PORT ?? 3903);

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

const hearth = await startHearth(PORT);
const finance = new pg.Client({ connectionString: hearth.databaseUrl("finance") });
try {
  const key = await hearth.newFamily("writer");
  const account = await hearth.post(
    "/api/v1/accounts",
    { account: { name: "Checking", account_type: "depository", balance: "1000", opening_balance_date: "2025-01-01" } },
    { "x-api-key": key },
  );
  const accountId = String(account.body["id"]);
  await finance.connect();
  const syncsOpen = async () =>
    (await finance.query<{ n: number }>("SELECT count(*)::int AS n FROM syncs WHERE syncable_id = $1 AND status IN ('pending', 'syncing')", [accountId]))
      .rows[0]!.n > 0;
  while (await syncsOpen()) await sleep(5);

  const endToEnd: number[] = [];
  const answered: number[] = [];
  const createdToStarted: number[] = [];
  const startedToCompleted: number[] = [];
  for (let i = 0; i < SAMPLES + 5; i++) {
    const day = `2025-${String(1 + (i % 12)).padStart(2, "0")}-15`;
    const started = performance.now();
    const written = await hearth.post(
      "/api/v1/transactions",
      { transaction: { account_id: accountId, date: day, amount: "-1.25", name: `Coffee ${i}` } },
      { "x-api-key": key },
    );
    if (written.status !== 201) throw new Error(`transaction: ${written.status}`);
    const answeredMs = performance.now() - started;
    while (await syncsOpen()) await sleep(2);
    if (i < 5) continue;
    endToEnd.push(performance.now() - started);
    answered.push(answeredMs);
    const stamps = await finance.query<{ queued: number; ran: number }>(
      `SELECT extract(epoch FROM syncing_at - created_at) * 1000 AS queued, extract(epoch FROM completed_at - syncing_at) * 1000 AS ran
         FROM syncs WHERE syncable_id = $1 ORDER BY created_at DESC LIMIT 1`,
      [accountId],
    );
    createdToStarted.push(Number(stamps.rows[0]!.queued));
    startedToCompleted.push(Number(stamps.rows[0]!.ran));
  }
  const figures: BenchFigure[] = [
    {
      name: `sync latency after a write through npm start: POST /transactions to its sync completed (median of ${SAMPLES})`,
      value: median(endToEnd),
      unit: "ms",
      baseline: { name: "the POST answered", value: median(answered) },
    },
    { name: "of which: the sync created to started (its syncing_at less its created_at, median)", value: median(createdToStarted), unit: "ms" },
    { name: "of which: the sync started to completed (its completed_at less its syncing_at, median)", value: median(startedToCompleted), unit: "ms" },
  ];
  for (const figure of figures)
    console.log(
      `${figure.name}: ${figure.value.toFixed(1)} ${figure.unit}${figure.baseline ? ` (baseline ${figure.baseline.name}: ${figure.baseline.value.toFixed(1)})` : ""}`,
    );
  await saveSection({
    id: "sync-after-write",
    title: "Sync latency after a write, every service its own process",
    method: `npm start on a fresh data directory; ${SAMPLES} transactions POSTed through the gateway with an API key one after the other (5 more before, to warm up), each followed by reads of finance's syncs table every 2 ms until the account's sync completed; the split comes from the sync's own stamps. The same file run at an older commit gives the before/after ratio.`,
    figures,
  });
} finally {
  await finance.end().catch(() => undefined);
  await hearth.stop();
}
