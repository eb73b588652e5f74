import { Prisma } from "../generated/prisma/client";

/**
 * An account the export carries: every status but pending_deletion (an account being removed,
 * gone from every list already; Sure has no such state to import it into).
 */
export const exportedAccount = (alias: string, familyId: string): Prisma.Sql =>
  Prisma.sql`${Prisma.raw(alias)}.family_id = ${familyId}::uuid AND ${Prisma.raw(alias)}.status <> 'pending_deletion'`;

/**
 * What COPY reads for a part: `columns` (text expressions over the columns of `r`) of each row of
 * `rows`, a query ending in ORDER BY. OFFSET 0 keeps `rows` a subquery of its own (never merged
 * into the one around it), so its rows come out in its order.
 */
export const selectOverRows = (rows: Prisma.Sql, columns: Prisma.Sql[]): Prisma.Sql =>
  Prisma.sql`SELECT ${Prisma.join(columns, ", ")} FROM (${rows} OFFSET 0) r`;
