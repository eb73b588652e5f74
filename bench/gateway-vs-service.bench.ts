// `npm run bench`: GET /api/v1/tags/{id} through the gateway (HTTP, API key auth, tRPC hop)
// against the same lookup asked of the finance service directly (its tRPC endpoint with a
// signed internal context), both in this process, on the same database, in the same run.
// Figures are reported side by side and as ratios; absolute numbers depend on the machine.
import autocannon, { type Result } from "autocannon";
import { createInternalSigner } from "@hearth/service-kit";
import { startTestPostgres } from "@hearth/test-kit";
import { apiClient, signUpUser, startSystem } from "@hearth/system-tests";

const DURATION_S = Number(process.env.BENCH_DURATION ?? 10);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 10);

const postgres = await startTestPostgres();
// The bench is one credential sending thousands of requests: lift its rate limit.
const system = await startSystem({ adminUrl: postgres.adminUrl, gatewayEnv: { RATE_LIMIT_REQUESTS: "1000000000" } });
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

  const run = async (target: { url: string; headers: Record<string, string> }, duration: number): Promise<Result> => {
    // A worker thread generates the load, so it does not compete with the servers' event loop.
    const result = await autocannon({ ...target, connections: CONNECTIONS, duration, workers: 1 });
    if (result.errors > 0 || result.non2xx > 0) throw new Error(`${target.url}: ${result.errors} errors, ${result.non2xx} non-2xx answers`);
    return result;
  };

  console.log(`warming up both paths (2 s each), then ${DURATION_S} s each with ${CONNECTIONS} connections...`);
  await run(await service(), 2);
  await run(gateway, 2);
  const direct = await run(await service(), DURATION_S);
  const through = await run(gateway, DURATION_S);

  const row = (name: string, r: Result) =>
    `${name.padEnd(34)} ${r.requests.average.toFixed(0).padStart(8)} ${String(r.latency.p50).padStart(8)} ${String(r.latency.p99).padStart(8)}`;
  console.log(`\nGET /api/v1/tags/{id}: ${CONNECTIONS} connections, ${DURATION_S} s, Node ${process.version}`);
  console.log(`${"".padEnd(34)} ${"req/s".padStart(8)} ${"p50 ms".padStart(8)} ${"p99 ms".padStart(8)}`);
  console.log(row("finance service directly (tRPC)", direct));
  console.log(row("through the gateway", through));
  console.log(
    `\nratio gateway/service: throughput ${(through.requests.average / direct.requests.average).toFixed(2)}x, ` +
      `p50 ${(through.latency.p50 / Math.max(direct.latency.p50, 0.001)).toFixed(2)}x, p99 ${(through.latency.p99 / Math.max(direct.latency.p99, 0.001)).toFixed(2)}x`,
  );
} finally {
  await system.stop();
  await postgres.stop();
}
