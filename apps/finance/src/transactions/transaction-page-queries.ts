import type { QueryOf } from "@hearth/contracts";
import type { FinanceDb } from "../db";
import { Prisma } from "../generated/prisma/client";
import { amountGroups } from "../ledger/amount-filter";

export interface PageTuning {
  /** Up to this many matches, collecting them all and sorting beats walking the date index. */
  selective: number;
  /** Every this many rows a position is remembered: a deep page skips fewer rows than this. */
  checkpointEvery: number;
}
export const PAGE_TUNING: PageTuning = { selective: 20_000, checkpointEvery: 10_000 };

/** Sure's filters as one SQL condition on `entries e` (every value a bound parameter). */
export function transactionFilterSql(familyId: string, query: QueryOf<"transactions.list">, hiddenAccountIds: string[], currencies: string[] = []): Prisma.Sql {
  const parts: Prisma.Sql[] = [Prisma.sql`e.family_id = ${familyId}::uuid`, Prisma.sql`e.kind = 'transaction'`];
  if (hiddenAccountIds.length > 0) parts.push(Prisma.sql`e.account_id <> ALL(${hiddenAccountIds}::uuid[])`);
  const anyOf = (column: Prisma.Sql, one: string | undefined, many: string[] | undefined) => {
    const ids = [...(one ? [one] : []), ...(many ?? [])];
    if (ids.length > 0) parts.push(Prisma.sql`${column} = ANY(${ids}::uuid[])`);
  };
  anyOf(Prisma.sql`e.account_id`, query.account_id, query.account_ids);
  anyOf(Prisma.sql`e.category_id`, query.category_id, query.category_ids);
  anyOf(Prisma.sql`e.merchant_id`, query.merchant_id, query.merchant_ids);
  if (query.tag_ids && query.tag_ids.length > 0) {
    parts.push(Prisma.sql`EXISTS (SELECT 1 FROM entry_tags et WHERE et.entry_id = e.id AND et.tag_id = ANY(${query.tag_ids}::uuid[]))`);
  }
  if (query.start_date) parts.push(Prisma.sql`e.date >= ${query.start_date}::date`);
  if (query.end_date) parts.push(Prisma.sql`e.date <= ${query.end_date}::date`);
  const groups = amountGroups(query.min_amount, query.max_amount, currencies);
  if (groups) {
    const ors = groups.map((group) => {
      const currency = Prisma.sql`e.currency = ANY(${group.currencies}::text[])`;
      const min = group.min === undefined ? Prisma.empty : Prisma.sql` AND e.amount_cents >= ${group.min}`;
      const max = group.max === undefined ? Prisma.empty : Prisma.sql` AND e.amount_cents <= ${group.max}`;
      return Prisma.sql`(${currency}${min}${max})`;
    });
    parts.push(ors.length > 0 ? Prisma.sql`(${Prisma.join(ors, " OR ")})` : Prisma.sql`FALSE`);
  }
  if (query.type === "income") parts.push(Prisma.sql`e.amount_cents < 0`);
  if (query.type === "expense") parts.push(Prisma.sql`e.amount_cents > 0`); // Sure: zero is neither
  if (query.search) {
    const pattern = `%${query.search.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
    parts.push(
      Prisma.sql`(e.name ILIKE ${pattern} OR e.notes ILIKE ${pattern} OR EXISTS (SELECT 1 FROM merchants m WHERE m.id = e.merchant_id AND m.name ILIKE ${pattern}))`,
    );
  }
  return Prisma.join(parts, " AND ");
}

/**
 * The currencies a family's entries are in, by skipping through the (family, currency, amount)
 * index: a few probes, however many entries.
 */
export async function entryCurrenciesOf(db: FinanceDb, familyId: string): Promise<string[]> {
  const rows = await db.$queryRaw<{ currency: string }[]>`
    WITH RECURSIVE found AS (
      (SELECT currency FROM entries WHERE family_id = ${familyId}::uuid ORDER BY currency LIMIT 1)
      UNION ALL
      SELECT (SELECT e.currency FROM entries e WHERE e.family_id = ${familyId}::uuid AND e.currency > found.currency ORDER BY e.currency LIMIT 1)
        FROM found WHERE found.currency IS NOT NULL
    )
    SELECT currency FROM found WHERE currency IS NOT NULL`;
  return rows.map((row) => row.currency);
}

export async function countTransactions(db: FinanceDb, where: Prisma.Sql): Promise<number> {
  const [row] = await db.$queryRaw<{ total: bigint }[]>`SELECT count(*) AS total FROM entries e WHERE ${where}`;
  return Number(row?.total ?? 0n);
}

interface Key {
  date: Date;
  id: string;
}

/**
 * Every `every`-th position of the newest-first order: one pass over the matches, remembered
 * with the total, lets any later page skip fewer than `every` rows.
 */
export async function checkpointsOf(db: FinanceDb, where: Prisma.Sql, every = PAGE_TUNING.checkpointEvery): Promise<Key[]> {
  return db.$queryRaw<Key[]>`
    SELECT date, id FROM (
      SELECT e.date, e.id, row_number() OVER (ORDER BY e.date DESC, e.id DESC) AS position FROM entries e WHERE ${where}
    ) ordered WHERE position % ${every} = 0 ORDER BY position`;
}

/**
 * The ids of one page, newest first. Few matches: collect them all, then sort (the planner would
 * otherwise walk the date index past most of the family's rows). Many: walk the date index, from
 * the nearest checkpoint when the page is deep.
 */
export async function pageIds(
  db: FinanceDb,
  where: Prisma.Sql,
  window: { skip: number; take: number },
  total: number,
  checkpoints: () => Promise<Key[]>,
  tuning: PageTuning = PAGE_TUNING,
): Promise<string[]> {
  if (window.skip >= total) return [];
  let rows: { id: string }[];
  if (total <= tuning.selective) {
    rows = await db.$queryRaw`
      WITH matches AS MATERIALIZED (SELECT e.id, e.date FROM entries e WHERE ${where})
      SELECT id FROM matches ORDER BY date DESC, id DESC OFFSET ${window.skip} LIMIT ${window.take}`;
  } else if (window.skip < tuning.checkpointEvery) {
    rows = await db.$queryRaw`SELECT e.id FROM entries e WHERE ${where} ORDER BY e.date DESC, e.id DESC OFFSET ${window.skip} LIMIT ${window.take}`;
  } else {
    const keys = await checkpoints();
    const passed = Math.min(Math.floor(window.skip / tuning.checkpointEvery), keys.length);
    const from = keys[passed - 1]!;
    rows = await db.$queryRaw`
      SELECT e.id FROM entries e WHERE ${where} AND (e.date, e.id) < (${from.date}::date, ${from.id}::uuid)
       ORDER BY e.date DESC, e.id DESC OFFSET ${window.skip - passed * tuning.checkpointEvery} LIMIT ${window.take}`;
  }
  return rows.map((row) => row.id);
}
