// `npm run bench`, second part: what a password login costs, for the identity requirement
// "one login stays under 100 ms on this machine".
//  1. argon2id alone, one operation at a time: hash and verify times for the parameters
//     production uses (createPasswordHasher()'s defaults) and for alternatives around them.
//  2. argon2id verify alone at 1, 2 and 4 concurrent verifies (production parameters): the CPU
//     ceiling a login cannot beat, and the baseline login latency is compared with.
//  3. Real logins over HTTP: the whole system in this process, POST /api/v1/auth/login with
//     autocannon at each concurrency (connections), then GET /health at the same concurrency as
//     a baseline of the HTTP stack. Figures are reported with their ratios to both baselines.
// Passes when the p50 login at concurrency 1 is under 100 ms (exit code 1 otherwise).
import { availableParallelism, cpus } from "node:os";
import { fileURLToPath } from "node:url";
import autocannon, { type Options, type Result } from "autocannon";
import { startTestPostgres } from "@hearth/test-kit";
import { DEVICE, TEST_PASSWORD, apiClient, signUpUser, startSystem } from "@hearth/system-tests";
// The hasher the gateway logs in with (exported for this benchmark): its defaults are production's.
import { createPasswordHasher } from "@hearth/gateway/passwords";
import { saveSection, type BenchFigure } from "./report";

const DURATION_S = Number(process.env.BENCH_DURATION ?? 10);
const HEALTH_DURATION_S = Math.min(5, DURATION_S);
const LEVELS = (process.env.BENCH_LOGIN_CONCURRENCY ?? "1,2,4").split(",").map(Number);
const ARGON2_VERIFIES = Number(process.env.BENCH_ARGON2_SAMPLES ?? 30);
const ARGON2_HASHES = 5;
const ARGON2_CONCURRENT_S = 3;
const BUDGET_MS = 100;
/** Other argon2id costs, around production's: OWASP's equivalents (m, t) and RFC 9106's 64 MiB. */
const ALTERNATIVES = [
  { memoryCostKiB: 9216, timeCost: 4 },
  { memoryCostKiB: 12_288, timeCost: 3 },
  { memoryCostKiB: 19_456, timeCost: 1 },
  { memoryCostKiB: 47_104, timeCost: 1 },
  { memoryCostKiB: 65_536, timeCost: 3 },
];

interface Stats {
  p50: number;
  p95: number;
  p99: number;
}

/** Nearest-rank percentiles, in ms. */
function stats(samples: number[]): Stats {
  if (samples.length === 0) throw new Error("no samples");
  const sorted = [...samples].sort((a, b) => a - b);
  const at = (q: number) => sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil(q * sorted.length) - 1))] as number;
  return { p50: at(0.5), p95: at(0.95), p99: at(0.99) };
}

async function timed(operation: () => Promise<unknown>): Promise<number> {
  const start = performance.now();
  await operation();
  return performance.now() - start;
}

const ms = (value: number) => value.toFixed(1).padStart(8);
const num = (value: number, digits = 0) => value.toFixed(digits).padStart(10);
const sleep = (millis: number) => new Promise((resolve) => setTimeout(resolve, millis));

/** `m=19456,t=2,p=1` of an encoded argon2 hash. */
function parametersOf(hash: string): string {
  const match = /\$m=(\d+),t=(\d+),p=(\d+)\$/.exec(hash);
  if (!match) throw new Error(`not an argon2 hash: ${hash}`);
  return `m=${match[1]} KiB (${(Number(match[1]) / 1024).toFixed(0)} MiB), t=${match[2]}, p=${match[3]}`;
}

/** Hash and verify times of one argon2id cost, one operation at a time. */
async function measureArgon2(memoryCostKiB?: number, timeCost?: number) {
  const hasher = createPasswordHasher(memoryCostKiB, timeCost);
  const hash = await hasher.hash(TEST_PASSWORD); // also warms up
  const hashes: number[] = [];
  for (let i = 0; i < ARGON2_HASHES; i++) hashes.push(await timed(() => hasher.hash(TEST_PASSWORD)));
  const verifies: number[] = [];
  for (let i = 0; i < ARGON2_VERIFIES; i++) {
    verifies.push(
      await timed(async () => {
        if (!(await hasher.verify(hash, TEST_PASSWORD))) throw new Error("argon2 verify refused the right password");
      }),
    );
  }
  return { parameters: parametersOf(hash), hash: stats(hashes), verify: stats(verifies) };
}

/** Production-cost verifies, `concurrency` at a time for a few seconds: throughput and latency. */
async function argon2Concurrent(concurrency: number) {
  const hasher = createPasswordHasher();
  const hash = await hasher.hash(TEST_PASSWORD);
  const times: number[] = [];
  const start = performance.now();
  const end = start + ARGON2_CONCURRENT_S * 1000;
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (performance.now() < end) times.push(await timed(() => hasher.verify(hash, TEST_PASSWORD)));
    }),
  );
  return { perSecond: (times.length * 1000) / (performance.now() - start), ...stats(times) };
}

// --- 1 and 2: argon2id alone, before anything else runs in this process ---
const cpu = cpus()[0]?.model ?? "unknown CPU";
console.log(`Node ${process.version}, ${availableParallelism()} CPUs (${cpu}), libuv threadpool ${process.env.UV_THREADPOOL_SIZE ?? "4 (default)"}`);
console.log(`\nmeasuring argon2id: ${ARGON2_HASHES} hashes and ${ARGON2_VERIFIES} verifies per cost, one at a time...`);
const production = await measureArgon2();
const alternatives = [];
for (const { memoryCostKiB, timeCost } of ALTERNATIVES) alternatives.push(await measureArgon2(memoryCostKiB, timeCost));
const costRows = [{ ...production, parameters: `${production.parameters} *` }, ...alternatives.filter((row) => row.parameters !== production.parameters)];
console.log(`\nargon2id, one operation at a time (* = production: createPasswordHasher() defaults)`);
console.log(
  `${"parameters".padEnd(36)} ${"hash p50".padStart(8)} ${"verify p50".padStart(10)} ${"verify p95".padStart(10)} ${"verifies/s".padStart(10)}  < ${BUDGET_MS} ms`,
);
for (const row of costRows) {
  console.log(
    `${row.parameters.padEnd(36)} ${ms(row.hash.p50)} ${ms(row.verify.p50).padStart(10)} ${ms(row.verify.p95).padStart(10)} ${num(1000 / row.verify.p50)}  ${row.verify.p95 < BUDGET_MS ? "yes" : "NO"}`,
  );
}

console.log(`\nmeasuring argon2id verify at ${LEVELS.join(", ")} concurrent verifies (${ARGON2_CONCURRENT_S} s each, production cost)...`);
const bareVerify = new Map<number, Awaited<ReturnType<typeof argon2Concurrent>>>();
for (const level of LEVELS) bareVerify.set(level, await argon2Concurrent(level));

// --- 3: logins through the gateway, and GET /health as the HTTP baseline ---
const PROBE = fileURLToPath(new URL("./latency-probe.cjs", import.meta.url));
const latencies = new BroadcastChannel("hearth-bench-latencies");
let samples: number[] = [];
latencies.addEventListener("message", (event) => void samples.push(((event as MessageEvent).data as { responseTime: number }).responseTime));

/** One autocannon run in a worker thread; with `probe`, also the time of every response (for p95). */
async function load(options: Options, probe: boolean): Promise<{ result: Result; latency: Stats | null }> {
  samples = [];
  const result = await autocannon({ ...options, workers: 1, ...(probe ? { setupClient: PROBE } : {}) });
  if (result.errors > 0 || result.non2xx > 0)
    throw new Error(`${options.method ?? "GET"} ${options.url}: ${result.errors} errors, ${result.non2xx} non-2xx answers`);
  if (!probe) return { result, latency: null };
  // The probe's messages may trail the result by a moment.
  for (const deadline = Date.now() + 5000; samples.length < result.latency.totalCount && Date.now() < deadline;) await sleep(20);
  return { result, latency: stats(samples) };
}

const postgres = await startTestPostgres();
// Logins are a public route: the per-credential rate limiter never counts them (checked below);
// lifted anyway, as in the other bench, so no limit can cut a run.
const system = await startSystem({
  adminUrl: postgres.adminUrl,
  gatewayEnv: { RATE_LIMIT_REQUESTS: "1000000000", SESSION_RATE_LIMIT_REQUESTS: "1000000000", FAMILY_RATE_LIMIT_REQUESTS: "1000000000" },
});
let passed = false;
try {
  const api = apiClient(system.url);
  const user = await signUpUser(api, "bench-login");
  // Only right passwords: the login throttle (which counts failures) never engages.
  const credentials = { email: user.email, password: TEST_PASSWORD, device: DEVICE };
  const first = await api.post("/api/v1/auth/login", credentials);
  if (first.status !== 200) throw new Error(`login failed: ${first.status} ${JSON.stringify(first.body)}`);
  const limited = first.headers.get("x-ratelimit-limit");
  console.log(
    `\nrate limiter: RATE_LIMIT_REQUESTS=${system.config.RATE_LIMIT_REQUESTS} per ${system.config.RATE_LIMIT_WINDOW_SECONDS} s; ` +
      (limited === null
        ? "login answers carry no X-RateLimit-* headers (public route, not counted)"
        : `login answers are counted (X-RateLimit-Limit ${limited})`),
  );

  const login: Options = {
    url: `${system.url}/api/v1/auth/login`,
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify(credentials),
  };
  const health: Options = { url: `${system.url}/health` };

  console.log(`warming up (2 s of logins, 2 s of /health), then ${DURATION_S} s of logins and ${HEALTH_DURATION_S} s of /health per concurrency...`);
  await load({ ...login, connections: 1, duration: 2 }, true);
  await load({ ...health, connections: 1, duration: 2 }, false);
  const rows = [];
  for (const connections of LEVELS) {
    const logins = await load({ ...login, connections, duration: DURATION_S }, true);
    const baseline = await load({ ...health, connections, duration: HEALTH_DURATION_S }, false);
    rows.push({ connections, logins, baseline, bare: bareVerify.get(connections) });
  }

  console.log(`\nPOST /api/v1/auth/login through the gateway (argon2id ${production.parameters}), ${DURATION_S} s per concurrency`);
  console.log(
    `${"conc.".padStart(5)} ${"logins/s".padStart(10)} ${"p50 ms".padStart(8)} ${"p95 ms".padStart(8)} ${"p99 ms".padStart(8)} ${"logins".padStart(8)}` +
      ` | ${"verify/s".padStart(10)} ${"verify p50".padStart(10)} | ${"/health/s".padStart(10)} ${"p50".padStart(5)} ${"p99".padStart(5)}`,
  );
  for (const { connections, logins, baseline, bare } of rows) {
    const latency = logins.latency as Stats;
    console.log(
      `${String(connections).padStart(5)} ${num(logins.result.requests.average, 1)} ${ms(latency.p50)} ${ms(latency.p95)} ${ms(latency.p99)} ${String(logins.result.latency.totalCount).padStart(8)}` +
        ` | ${num(bare?.perSecond ?? NaN, 1)} ${ms(bare?.p50 ?? NaN).padStart(10)} | ${num(baseline.result.requests.average)} ${String(baseline.result.latency.p50).padStart(5)} ${String(baseline.result.latency.p99).padStart(5)}`,
    );
  }
  console.log(`\nratios (same run)`);
  console.log(
    `${"conc.".padStart(5)} ${"logins/s ÷ bare verifies/s".padStart(27)} ${"login p50 ÷ verify p50".padStart(23)} ${"login p50 − verify p50".padStart(23)} ${"logins/s ÷ /health/s".padStart(21)}`,
  );
  for (const { connections, logins, baseline, bare } of rows) {
    const latency = logins.latency as Stats;
    const verifyP50 = bare?.p50 ?? NaN;
    console.log(
      `${String(connections).padStart(5)} ${(logins.result.requests.average / (bare?.perSecond ?? NaN)).toFixed(2).padStart(26)}x ${(latency.p50 / verifyP50).toFixed(2).padStart(22)}x` +
        ` ${`${(latency.p50 - verifyP50).toFixed(1)} ms`.padStart(23)} ${(logins.result.requests.average / baseline.result.requests.average).toFixed(4).padStart(20)}x`,
    );
  }

  const single = rows.find((row) => row.connections === 1)?.logins.latency;
  if (!single) throw new Error("the pass/fail check needs concurrency 1 in BENCH_LOGIN_CONCURRENCY");
  passed = single.p50 < BUDGET_MS;
  const figures: BenchFigure[] = rows.flatMap(({ connections, logins, bare }) => [
    {
      name: `login p50 latency, concurrency ${connections}`,
      value: (logins.latency as Stats).p50,
      unit: "ms",
      baseline: { name: `argon2id verify alone, ${connections} at once`, value: bare?.p50 ?? NaN },
      ...(connections === 1 ? { goal: { text: `< ${BUDGET_MS} ms`, met: (logins.latency as Stats).p50 < BUDGET_MS } } : {}),
    },
    {
      name: `logins per second, concurrency ${connections}`,
      value: logins.result.requests.average,
      unit: "/s",
      baseline: { name: "argon2id verifies alone", value: bare?.perSecond ?? NaN },
    },
  ]);
  await saveSection({
    id: "login",
    title: "Password login",
    method: `POST /api/v1/auth/login through the gateway with autocannon, ${DURATION_S} s per concurrency, against argon2id verify alone (production cost ${production.parameters}) at the same concurrency, in one process.`,
    figures,
  });
  console.log(
    `\none login under ${BUDGET_MS} ms (p50 at concurrency 1): ${single.p50.toFixed(1)} ms (p95 ${single.p95.toFixed(1)} ms; argon2id verify alone, one at a time: ${production.verify.p50.toFixed(1)} ms) -> ${passed ? "PASS" : "FAIL"}`,
  );
} finally {
  latencies.close();
  await system.stop();
  await postgres.stop();
}
if (!passed) process.exitCode = 1;
