// `npm run bench`: what the ORM costs on the hot path. The same primary-key read of a tag, asked
// of the finance service's Prisma client (the pg driver adapter, as the service runs it) and of a
// bare `pg` pool of the same size, at concurrency 1 and 32, in the same process and run.
// Goal: Prisma at most 1.5x raw pg's mean latency.
import pg from "pg";
import { createFinanceDb } from "@hearth/finance/db";
import { startTestPostgres } from "@hearth/test-kit";
import { apiClient, signUpUser, startSystem } from "@hearth/system-tests";
import { saveSection, type BenchFigure } from "./report";

const DURATION_MS = Number(process.env.BENCH_DURATION ?? 10) * 1000;
const POOL_SIZE = 10;
const LEVELS = [1, 32];
const GOAL = 1.5;

/** Runs `read` from `concurrency` loops for `durationMs`; answers the mean latency (ms) and reads per second. */
async function measure(read: () => Promise<unknown>, concurrency: number, durationMs: number): Promise<{ meanMs: number; perSecond: number }> {
  const deadline = performance.now() + durationMs;
  let count = 0;
  let total = 0;
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (performance.now() < deadline) {
        const started = performance.now();
        await read();
        total += performance.now() - started;
        count += 1;
      }
    }),
  );
  return { meanMs: total / count, perSecond: count / (durationMs / 1000) };
}

const postgres = await startTestPostgres();
const system = await startSystem({ adminUrl: postgres.adminUrl });
try {
  const api = apiClient(system.url);
  const user = await signUpUser(api, "bench-orm");
  const tag = await api.post("/api/v1/tags", { tag: { name: "Benchmark" } }, { apiKey: user.writeKey });
  if (tag.status !== 201) throw new Error(`could not create the tag: ${JSON.stringify(tag.body)}`);
  const id = tag.body.id as string;
  const membership = await system.db.gateway.membership.findUniqueOrThrow({ where: { userId: user.id } });
  const familyId = membership.familyId;

  // Both read what TagRepository.get reads: the tag by id within the family.
  const prisma = createFinanceDb(system.databaseUrls.finance);
  const pool = new pg.Pool({ connectionString: system.databaseUrls.finance, max: POOL_SIZE });
  const viaPrisma = () => prisma.tag.findFirst({ where: { id, familyId } });
  const viaPg = () => pool.query("SELECT * FROM tags WHERE id = $1 AND family_id = $2", [id, familyId]);
  if (!(await viaPrisma()) || (await viaPg()).rowCount !== 1) throw new Error("the tag is not where the bench looks for it");

  console.log(`warming up, then ${DURATION_MS / 1000} s per client and concurrency (${LEVELS.join(", ")}), pools of ${POOL_SIZE}...`);
  await measure(viaPrisma, 4, 2_000);
  await measure(viaPg, 4, 2_000);
  const figures: BenchFigure[] = [];
  console.log(`\nprimary-key read of a tag, Node ${process.version}`);
  console.log(`${"".padEnd(16)}${"prisma ms".padStart(11)}${"pg ms".padStart(9)}${"ratio".padStart(8)}${"prisma/s".padStart(10)}${"pg/s".padStart(9)}`);
  for (const concurrency of LEVELS) {
    const raw = await measure(viaPg, concurrency, DURATION_MS);
    const orm = await measure(viaPrisma, concurrency, DURATION_MS);
    const ratio = orm.meanMs / raw.meanMs;
    console.log(
      `${`concurrency ${concurrency}`.padEnd(16)}${orm.meanMs.toFixed(3).padStart(11)}${raw.meanMs.toFixed(3).padStart(9)}${`${ratio.toFixed(2)}x`.padStart(8)}` +
        `${orm.perSecond.toFixed(0).padStart(10)}${raw.perSecond.toFixed(0).padStart(9)}`,
    );
    figures.push({
      name: `mean latency through Prisma, concurrency ${concurrency}`,
      value: orm.meanMs,
      unit: "ms",
      baseline: { name: "raw pg", value: raw.meanMs },
      goal: { text: `<= ${GOAL}x raw pg`, met: ratio <= GOAL },
    });
  }
  await saveSection({
    id: "prisma-vs-pg",
    title: "Prisma vs raw pg: a primary-key read",
    method:
      `The finance service's Prisma client (adapter-pg, pool of ${POOL_SIZE}) and a bare pg.Pool of the same size read the same tag by id and family, ` +
      `${DURATION_MS / 1000} s each at every concurrency, raw pg first, in one process.`,
    figures,
  });
  await prisma.$disconnect();
  await pool.end();
} finally {
  await system.stop();
  await postgres.stop();
}
