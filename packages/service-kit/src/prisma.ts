import { PrismaPg } from "@prisma/adapter-pg";
import pg from "pg";
import { registerPgPool } from "./metrics/pool";

/** What every generated Prisma client constructor accepts. */
type PrismaClientClass<C> = new (options: { adapter: PrismaPg }) => C;

/**
 * Builds a service's Prisma client on the pg driver adapter (Prisma 7's WebAssembly query
 * compiler: no engine binary at run time). The pool is made here so its use is reported
 * (`pg_pool_connections{pool="prisma"}`).
 */
export function createPrismaClient<C extends object>(ClientClass: PrismaClientClass<C>, databaseUrl: string, poolSize = 10): C {
  // Sessions in UTC, whatever the server's default: the adapter sends a Date as UTC wall-clock
  // time without an offset, so a timestamptz compared with one (a claim's lease) is only exact in UTC.
  const pool = new pg.Pool({ connectionString: databaseUrl, max: poolSize, options: "-c TimeZone=UTC" });
  // A connection the server ends while it is checked out (a restart, a terminated backend) emits
  // 'error' with nobody listening, which would end the process: the query on it fails instead,
  // and pg-pool drops it when it comes back (no longer queryable).
  pool.on("connect", (client) => client.on("error", () => {}));
  registerPgPool("prisma", pool);
  const client = new ClientClass({ adapter: new PrismaPg(pool, { disposeExternalPool: true }) });
  poolsByClient.set(client, pool);
  urlsByClient.set(client, databaseUrl);
  return client;
}

const poolsByClient = new WeakMap<object, pg.Pool>();
const urlsByClient = new WeakMap<object, string>();

/** The database a client made by createPrismaClient reaches (the job runner opens its own connections there). */
export function databaseUrlOf(client: object): string {
  const url = urlsByClient.get(client);
  if (!url) throw new Error("not a client made by createPrismaClient");
  return url;
}

/**
 * The pg pool under a client made by createPrismaClient: for what Prisma cannot do (a COPY
 * streamed out of the database), on one of the same connections.
 */
export function pgPoolOf(client: object): pg.Pool {
  const pool = poolsByClient.get(client);
  if (!pool) throw new Error("not a client made by createPrismaClient");
  return pool;
}
