import fc from "fast-check";
import { afterAll, beforeAll, describe, it } from "vitest";
import { routes, type RouteDef } from "@hearth/contracts";
import { testPostgresAdminUrl } from "@hearth/test-kit";
import { apiClient, startSystem, type TestSystem } from "../src";
import { createFuzzFamily, type FuzzFamily } from "../src/fuzz/fuzz-family";
import { problemWith, requestsFor, send } from "../src/fuzz/route-requests";

// Every route of the contracts' table, fed inputs generated from its own schemas and then
// mutated (wrong types, numbers out of every range, huge and broken strings, lone surrogates,
// deep nesting, extra keys, bad ids and dates), through real HTTP with valid credentials.
// No answer may be a 5xx, and every 4xx must be the spec's error body.
//
//   FUZZ_RUNS   requests per route (default 25: about a minute in CI)
//   FUZZ_SEED   replays a run; every run prints its seed, and a failure its counterexample
//
// The long run: FUZZ_RUNS=2000 npx vitest run test/fuzz-routes.test.ts
const RUNS = Number(process.env.FUZZ_RUNS ?? 25);
const SEED = process.env.FUZZ_SEED ? Number(process.env.FUZZ_SEED) : Math.floor(Math.random() * 2 ** 31);

/** Routes whose side effects would end the run; neither takes any input but the credential. */
const EXCLUDED: Record<string, string> = {
  "auth.logout": "ends the session whose token the fuzz uses",
  "users.deleteMe": "deletes the fuzz's own user and family",
};

// Error lines the system logs, so a 5xx comes with its stack trace.
const errorLines: string[] = [];
let system: TestSystem;
let family: FuzzFamily;

beforeAll(async () => {
  console.log(`fuzz-routes: seed ${SEED}, ${RUNS} runs per route (replay: FUZZ_SEED=${SEED} FUZZ_RUNS=${RUNS})`);
  system = await startSystem({
    adminUrl: testPostgresAdminUrl(),
    logLevel: "error",
    logDestination: { write: (line: string) => void errorLines.push(line) },
    // Thousands of requests from one key, sign-ups from one address, and a long run's token.
    gatewayEnv: {
      RATE_LIMIT_REQUESTS: "100000000",
      SESSION_RATE_LIMIT_REQUESTS: "100000000",
      SIGNUP_RATE_LIMIT_REQUESTS: "100000000",
      ACCESS_TOKEN_TTL_SECONDS: "86400",
    },
  });
  family = await createFuzzFamily(apiClient(system.url));
});
afterAll(async () => system?.stop());

const fuzzed = (Object.entries(routes) as [string, RouteDef][]).filter(([procedure]) => !(procedure in EXCLUDED));

describe("every route answers bad input with a 4xx error body, never a 5xx", () => {
  it.each(fuzzed.map(([procedure, route]) => [`${route.method} ${route.path} (${procedure})`, route] as const))(
    "%s",
    async (_name, route) => {
      await fc.assert(
        fc.asyncProperty(requestsFor(route, family), async (request) => {
          const logged = errorLines.length;
          const answer = await send(system.url, request, family);
          const problem = problemWith(route, answer);
          if (problem) throw new Error(`${problem}\n${errorLines.slice(logged).join("")}`);
        }),
        { numRuns: RUNS, seed: SEED },
      );
    },
    120_000 + RUNS * 1_000,
  );
});
