// The large family the ledger, planning and assistant benches share: a system on a throwaway
// database and the demo seed's family of BENCH_LEDGER_PURCHASES purchases (default 1,000,000) over
// two years. Its admin has AI turned on, as a user does, so the chat routes answer them.
import { performance } from "node:perf_hooks";
import { startTestPostgres } from "@hearth/test-kit";
import type { AssistantOptions } from "@hearth/chat/app";
import { startSystem } from "@hearth/system-tests";
import { seedDemoFamily } from "@hearth/demo-seed";

export const PURCHASES = Number(process.env.BENCH_LEDGER_PURCHASES ?? 1_000_000);

/** How the seeded database is left before the first figure (said in each report's method). */
export const SEEDED_STATE =
  "The database is vacuumed and analyzed once seeded, as autovacuum would have done on a server that runs it (it is off on this machine's PostgreSQL).";

/** `assistant`: the chat service's model providers (default: the built-in assistant alone). */
export async function startLargeFamily(name: string, assistant?: AssistantOptions) {
  const postgres = await startTestPostgres();
  const system = await startSystem({
    adminUrl: postgres.adminUrl,
    gatewayEnv: { RATE_LIMIT_REQUESTS: "1000000000", SESSION_RATE_LIMIT_REQUESTS: "1000000000", FAMILY_RATE_LIMIT_REQUESTS: "1000000000" },
    ledgerImport: true,
    ...(assistant && { assistant }),
  });
  const db = system.db.finance;
  const stop = async () => {
    await system.stop();
    await postgres.stop();
  };
  try {
    const started = performance.now();
    const family = await seedDemoFamily({
      apiUrl: system.url,
      finance: { url: system.services.finance.url, internalAuthSecret: system.config.INTERNAL_AUTH_SECRET },
      email: `bench-${name}-${Date.now()}@hearth.example`,
      password: "Bench-Password-1",
      purchases: PURCHASES,
      log: (line) => console.log(`  ${line}`),
    });
    const enabled = await fetch(`${system.url}/api/v1/auth/enable_ai`, { method: "PATCH", headers: { authorization: `Bearer ${family.token}` } });
    if (enabled.status !== 200) throw new Error(`enable AI: ${enabled.status} ${await enabled.text()}`);
    const headers = { authorization: `Bearer ${family.token}`, "content-type": "application/json" };
    /** The API as the family's admin, JSON in and out; a 4xx or 5xx throws. */
    const call = async (method: string, path: string, body?: unknown) => {
      const send = () => fetch(`${system.url}${path}`, { method, headers, ...(body === undefined ? {} : { body: JSON.stringify(body) }) });
      // A kept-alive socket the server closed just as it was reused is a reset, not an answer: once more on a fresh one.
      const res = await send().catch(async (err: unknown) => {
        if ((err as { cause?: { code?: string } }).cause?.code !== "ECONNRESET") throw err;
        return send();
      });
      // eslint-disable-next-line @typescript-eslint/no-explicit-any -- bench glue over untyped JSON answers
      const json = (await res.json().catch(() => null)) as any;
      if (res.status >= 400) throw new Error(`${method} ${path}: ${res.status} ${JSON.stringify(json)}`);
      return json;
    };
    /** Waits until the work a step leaves behind (account syncs, the recurring scan) is done: each step is timed alone. */
    const quiet = async () => {
      const deadline = performance.now() + 600_000;
      for (;;) {
        const open = await db.sync.count({ where: { status: { in: ["pending", "syncing"] } } });
        const scans = await db.job.count({ where: { status: { in: ["queued", "running"] } } });
        if (open === 0 && scans === 0) return;
        if (performance.now() > deadline) throw new Error(`background work still open after 10 minutes (${open} syncs, ${scans} jobs)`);
        await new Promise((resolve) => setTimeout(resolve, 250));
      }
    };
    // What autovacuum would have done by now on a server that runs it (this machine's PostgreSQL
    // has it off): hint bits and the visibility map set, statistics gathered. Without it every
    // later figure pays for a bulk load's first read of each page, which no running system does.
    await quiet();
    await db.$executeRawUnsafe("VACUUM (ANALYZE)");
    const transactions = await db.entry.count({ where: { familyId: family.familyId, kind: "transaction" } });
    console.log(`seeded ${transactions.toLocaleString("en")} transactions in ${((performance.now() - started) / 1000).toFixed(1)} s\n`);
    return { system, db, family, transactions, stop, headers, call, quiet };
  } catch (err) {
    await stop();
    throw err;
  }
}
