// `npm run bench`: GET /api/v1/tags/{id} through the gateway (HTTP, API key auth, tRPC hop)
// against the same lookup asked of the finance service directly (its tRPC endpoint with a
// signed internal context) and of a bare node:http + pg server (the floor), all in this process,
// on the same database, in the same run. Figures are reported side by side and as ratios against
// the floor; absolute numbers depend on the machine. Concurrency 1 shows the per-request latency.
import autocannon, { type Options, type Result } from "autocannon";
import pg from "pg";
import { createInternalSigner } from "@hearth/service-kit";
import { startTestPostgres } from "@hearth/test-kit";
import { apiClient, signUpUser, startSystem } from "@hearth/system-tests";
import { startFloorServer } from "./floor-server";
import { saveSection } from "./report";

const DURATION_S = Number(process.env.BENCH_DURATION ?? 10);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 10);

const postgres = await startTestPostgres();
// The bench is one credential sending thousands of requests: lift its rate limit.
const system = await startSystem({
  adminUrl: postgres.adminUrl,
  gatewayEnv: { RATE_LIMIT_REQUESTS: "1000000000", SESSION_RATE_LIMIT_REQUESTS: "1000000000", FAMILY_RATE_LIMIT_REQUESTS: "1000000000" },
});
try {
  const api = apiClient(system.url);
  const user = await signUpUser(api, "bench");
  const tag = await api.post("/api/v1/tags", { tag: { name: "Benchmark" } }, { apiKey: user.writeKey });
  if (tag.status !== 201) throw new Error(`could not create the tag: ${JSON.stringify(tag.body)}`);
  const membership = await system.db.gateway.membership.findUniqueOrThrow({ where: { userId: user.id } });

  const gateway = { url: `${system.url}/api/v1/tags/${tag.body.id}`, headers: { "x-api-key": user.readKey } };
  // The internal token lives 60 s: sign one per run, as the gateway signs one per call.
  const signInternal = createInternalSigner(system.config.INTERNAL_AUTH_SECRET, "gateway");
  const actor = {
    userId: user.id,
    familyId: membership.familyId,
    role: membership.role,
    scopes: ["read"] as ("read" | "read_write")[],
    authMethod: "api_key" as const,
  };
  const service = async () => ({
    url: `${system.services.finance.url}/trpc/tags.get?input=${encodeURIComponent(JSON.stringify({ id: tag.body.id }))}`,
    headers: { "x-hearth-internal": await signInternal("finance", { requestId: "bench", actor }) },
  });

  const floorServer = await startFloorServer(system.databaseUrls.finance);
  const floor = { url: floorServer.url(tag.body.id), headers: {} };

  const run = async (
    target: { url: string; headers: Record<string, string> },
    duration: number,
    connections = CONNECTIONS,
    extra: Partial<Options> = {},
  ): Promise<Result> => {
    // A worker thread generates the load, so it does not compete with the servers' event loop.
    const result = await autocannon({ ...target, connections, duration, workers: 1, ...extra });
    if (result.errors > 0 || result.non2xx > 0) throw new Error(`${target.url}: ${result.errors} errors, ${result.non2xx} non-2xx answers`);
    return result;
  };

  console.log(`warming up the three paths (2 s each), then ${DURATION_S} s each with ${CONNECTIONS} connections, and at 1...`);
  await run(floor, 2);
  await run(await service(), 2);
  await run(gateway, 2);
  const bare = await run(floor, DURATION_S);
  const direct = await run(await service(), DURATION_S);
  const commitsBefore = await commitsOf(system.databaseUrls);
  const through = await run(gateway, DURATION_S);
  const commits = diffCommits(commitsBefore, await commitsOf(system.databaseUrls), through.requests.total);
  const bareOne = await run(floor, DURATION_S, 1);
  const throughOne = await run(gateway, DURATION_S, 1);
  // The latency a client sees when Hearth is busy but not saturated: half its peak, paced.
  const halfPeakRate = Math.max(1, Math.round(through.requests.average / 2));
  const throughHalf = await run(gateway, DURATION_S, CONNECTIONS, { overallRate: halfPeakRate });

  const row = (name: string, r: Result) =>
    `${name.padEnd(34)} ${r.requests.average.toFixed(0).padStart(8)} ${String(r.latency.p50).padStart(8)} ${String(r.latency.p99).padStart(8)}`;
  console.log(`\nGET /api/v1/tags/{id}: ${CONNECTIONS} connections, ${DURATION_S} s, Node ${process.version}`);
  console.log(`${"".padEnd(34)} ${"req/s".padStart(8)} ${"p50 ms".padStart(8)} ${"p99 ms".padStart(8)}`);
  console.log(row("floor: node:http + pg", bare));
  console.log(row("finance service directly (tRPC)", direct));
  console.log(row("through the gateway", through));
  console.log(row("floor, 1 connection", bareOne));
  console.log(row("through the gateway, 1 connection", throughOne));
  console.log(row(`through the gateway, ${halfPeakRate} req/s paced`, throughHalf));
  console.log(
    `\ntransactions committed per gateway request (background work included): gateway ${commits.gateway.toFixed(2)}, finance ${commits.finance.toFixed(2)}`,
  );
  // autocannon's latency percentiles are whole milliseconds: the mean at 1 connection is the finer figure.
  console.log(
    `\nratio gateway/floor: throughput ${(through.requests.average / bare.requests.average).toFixed(2)}x (goal >= 0.3x); ` +
      `mean latency at 1 connection ${throughOne.latency.average.toFixed(2)} ms vs ${bareOne.latency.average.toFixed(2)} ms (goal <= 2 ms)`,
  );
  console.log(
    `\nratio gateway/service: throughput ${(through.requests.average / direct.requests.average).toFixed(2)}x, ` +
      `p50 ${(through.latency.p50 / Math.max(direct.latency.p50, 0.001)).toFixed(2)}x, p99 ${(through.latency.p99 / Math.max(direct.latency.p99, 0.001)).toFixed(2)}x`,
  );
  await saveSection({
    id: "gateway-overhead",
    title: "Gateway overhead: GET /api/v1/tags/{id}",
    method:
      `autocannon (a worker thread), ${DURATION_S} s per figure after a 2 s warm-up, everything in one process on one database: the floor is a bare ` +
      "node:http + pg server doing the same by-id read; the gateway path adds the API-key check, rate limit, routing and the tRPC hop to the finance service.",
    figures: [
      {
        name: `throughput through the gateway, ${CONNECTIONS} connections`,
        value: through.requests.average,
        unit: "req/s",
        baseline: { name: "floor", value: bare.requests.average },
        goal: { text: ">= 0.3x the floor", met: through.requests.average >= 0.3 * bare.requests.average },
      },
      {
        name: `throughput through the gateway, ${CONNECTIONS} connections`,
        value: through.requests.average,
        unit: "req/s",
        baseline: { name: "finance service directly (tRPC)", value: direct.requests.average },
      },
      {
        name: "mean latency through the gateway, 1 connection",
        value: throughOne.latency.average,
        unit: "ms",
        baseline: { name: "floor", value: bareOne.latency.average },
        goal: { text: "<= 2 ms", met: throughOne.latency.average <= 2 },
      },
      {
        name: `p99 latency through the gateway at half its peak (${halfPeakRate} req/s)`,
        value: throughHalf.latency.p99,
        unit: "ms",
        baseline: { name: "p50 at the same rate", value: throughHalf.latency.p50 },
        goal: { text: "< 10 ms", met: throughHalf.latency.p99 < 10 },
      },
      { name: "transactions committed per request, gateway database", value: commits.gateway, unit: "per request" },
      { name: "transactions committed per request, finance database", value: commits.finance, unit: "per request" },
    ],
  });
  await floorServer.stop();
} finally {
  await system.stop();
  await postgres.stop();
}

/** Transactions committed so far in the gateway's and finance's databases (pg_stat_database). */
async function commitsOf(urls: { gateway: string; finance: string }): Promise<{ gateway: number; finance: number }> {
  // A backend that goes idle reports its counts within 10 s (PostgreSQL's PGSTAT_IDLE_INTERVAL): let the last ones arrive.
  await new Promise((resolve) => setTimeout(resolve, 11_000));
  const read = async (url: string) => {
    const client = new pg.Client({ connectionString: url });
    await client.connect();
    try {
      const { rows } = await client.query<{ commits: string }>("SELECT xact_commit::text AS commits FROM pg_stat_database WHERE datname = current_database()");
      return Number(rows[0]?.commits ?? 0);
    } finally {
      await client.end();
    }
  };
  return { gateway: await read(urls.gateway), finance: await read(urls.finance) };
}

function diffCommits(before: { gateway: number; finance: number }, after: { gateway: number; finance: number }, requests: number) {
  return { gateway: (after.gateway - before.gateway) / requests, finance: (after.finance - before.finance) / requests };
}
