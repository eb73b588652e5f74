import { PrismaPg } from "@prisma/adapter-pg";

/** What every generated Prisma client constructor accepts. */
type PrismaClientClass<C> = new (options: { adapter: PrismaPg }) => C;

/**
 * Builds a service's Prisma client on the pg driver adapter (Prisma 7's WebAssembly query
 * compiler: no engine binary at run time).
 */
export function createPrismaClient<C>(ClientClass: PrismaClientClass<C>, databaseUrl: string, poolSize = 10): C {
  return new ClientClass({ adapter: new PrismaPg({ connectionString: databaseUrl, max: poolSize }) });
}
