import type pg from "pg";
import { scrapedGauge, type Sample } from "./registry";

const pools = new Map<string, pg.Pool>();

scrapedGauge({
  name: "pg_pool_connections",
  help: "Connections of a pg pool by state: total (open), idle, and waiting (callers queued for one)",
  labelNames: ["pool", "state"] as const,
  async collect() {
    const samples: Sample<"pool" | "state">[] = [];
    for (const [name, pool] of pools) {
      samples.push({ labels: { pool: name, state: "total" }, value: pool.totalCount });
      samples.push({ labels: { pool: name, state: "idle" }, value: pool.idleCount });
      samples.push({ labels: { pool: name, state: "waiting" }, value: pool.waitingCount });
    }
    return samples;
  },
});

/** Reports a pg pool's use under `name` until the returned function is called (its owner stopping). */
export function registerPgPool(name: string, pool: pg.Pool): () => void {
  pools.set(name, pool);
  return () => {
    if (pools.get(name) === pool) pools.delete(name);
  };
}
