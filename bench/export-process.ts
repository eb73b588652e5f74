// One family's export written by a process of its own (spawned by data-in-out.bench.ts), so its
// peak RSS is the exporting code's alone: the finance database client and the archive writer, as
// the finance service runs them (less its HTTP server), with its Node.js flags (the spawner
// passes APP_NODE_FLAGS.finance). Prints one JSON line.
import { Writable } from "node:stream";
import { performance } from "node:perf_hooks";
import { createFinanceDb } from "@hearth/finance/db";
import { writeFamilyExport } from "@hearth/finance/family-exports";

const [databaseUrl, familyId] = [process.env["EXPORT_DATABASE_URL"], process.env["EXPORT_FAMILY_ID"]];
if (!databaseUrl || !familyId) throw new Error("EXPORT_DATABASE_URL and EXPORT_FAMILY_ID are required");
const db = createFinanceDb(databaseUrl);
await db.$queryRaw`SELECT 1`;
const baseRss = process.memoryUsage().rss;
let peakRss = baseRss;
const sampler = setInterval(() => (peakRss = Math.max(peakRss, process.memoryUsage().rss)), 10);
let bytes = 0;
const sink = new Writable({
  write(chunk: Buffer, _encoding, done) {
    bytes += chunk.length;
    done();
  },
});
const started = performance.now();
const result = await writeFamilyExport(db, familyId, sink);
const ms = performance.now() - started;
clearInterval(sampler);
peakRss = Math.max(peakRss, process.memoryUsage().rss);
await db.$disconnect();
console.log(JSON.stringify({ ms, bytes, rows: Object.values(result.rows).reduce((sum, count) => sum + count, 0), baseRss, peakRss }));
