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
export function createPrismaClient<C>(ClientClass: PrismaClientClass<C>, databaseUrl: string, poolSize = 10): C {
  const pool = new pg.Pool({ connectionString: databaseUrl, max: poolSize });
  registerPgPool("prisma", pool);
  return new ClientClass({ adapter: new PrismaPg(pool, { disposeExternalPool: true }) });
}
