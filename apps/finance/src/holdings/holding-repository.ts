import { AppError, pageWindow, type QueryOf } from "@hearth/contracts";
import type { FinanceDb, FinanceTx } from "../db";
import { Prisma, type Account } from "../generated/prisma/client";
import { isoToDayNumber } from "../balances/calendar-days";
import { todayIso } from "../ledger/dates";
import { PRICE_SCALE, QTY_SCALE, toScaled } from "./fixed-point";
import { priceSpanDays, type PricedDay, type SpanDay } from "./holding-days";
import { parseHoldingId } from "./holding-ids";

/** A span's day with what the resource shows of its account and security. */
export interface HoldingSpanDay extends SpanDay {
  account: Pick<Account, "id" | "name" | "accountType" | "status">;
  security: { id: string; ticker: string; name: string | null };
  createdAt: Date;
  updatedAt: Date;
}
export type HoldingRow = PricedDay<HoldingSpanDay>;

interface SpanDayRow {
  position_key: string;
  security_id: string;
  currency: string;
  day: number;
  qty: string;
  avg_cost: string | null;
  trade_price: string;
  trade_price_day: number;
  account_id: string;
  account_name: string;
  account_type: Account["accountType"];
  account_status: Account["status"];
  ticker: string;
  security_name: string | null;
  created_at: Date;
  updated_at: Date;
}

function spanDayOf(row: SpanDayRow): HoldingSpanDay {
  return {
    positionKey: row.position_key,
    securityId: row.security_id,
    currency: row.currency,
    day: row.day,
    qty: toScaled(row.qty, QTY_SCALE),
    avgCost: row.avg_cost === null ? null : toScaled(row.avg_cost, PRICE_SCALE),
    tradePrice: toScaled(row.trade_price, PRICE_SCALE),
    tradePriceDay: row.trade_price_day,
    account: { id: row.account_id, name: row.account_name, accountType: row.account_type, status: row.account_status },
    security: { id: row.security_id, ticker: row.ticker, name: row.security_name },
    createdAt: row.created_at,
    updatedAt: row.updated_at,
  };
}

/** The columns a span's day is read with (`s` the span, `d.day` the day number, `a` its account, `sec` its security). */
const SPAN_DAY_COLUMNS = Prisma.sql`
  s.position_key::text AS position_key, s.security_id::text AS security_id, s.currency, d.day::int AS day, s.qty::text AS qty,
  s.avg_cost::text AS avg_cost, s.trade_price::text AS trade_price, (s.trade_price_date - DATE '1970-01-01')::int AS trade_price_day,
  a.id::text AS account_id, a.name AS account_name, a.account_type::text AS account_type, a.status::text AS account_status,
  sec.ticker, sec.name AS security_name, s.created_at, s.updated_at`;

const dayOfDate = (column: string) => Prisma.raw(`(${column} - DATE '1970-01-01')`);

interface PageWindow {
  total: number;
  /** The days the page's first and last rows are of (both null: the page is past the end). */
  firstDay: number | null;
  lastDay: number | null;
  /** Rows of the days before `firstDay`: the page starts that many rows into its first day. */
  rowsBeforeFirstDay: number;
}

/**
 * Where a page falls, from the spans' first and last days alone: each span adds a row a day from
 * its first day to its last, so summing +1 and -1 at those ends and running the total gives the
 * rows of every day without generating one. Rows are ordered by day first, so the page's first
 * and last rows (`skip` and `skip + take - 1`) are on days found from the running row counts.
 */
async function pageDays(tx: FinanceTx, where: Prisma.Sql, first: Prisma.Sql, last: Prisma.Sql, skip: number, take: number): Promise<PageWindow> {
  const lastIndex = skip + take - 1;
  const [found] = await tx.$queryRaw<{ total: bigint; first_day: number | null; last_day: number | null; before_first: bigint | null }[]>`
    WITH spans AS (
      SELECT ${first} AS first_day, ${last} AS last_day
        FROM holding_spans s JOIN accounts a ON a.id = s.account_id
       WHERE ${where}
    ), ends AS (
      SELECT first_day AS day, 1 AS delta FROM spans
      UNION ALL SELECT last_day + 1, -1 FROM spans
    ), per_day AS (
      SELECT day, sum(delta) AS delta FROM ends GROUP BY day
    ), segments AS (
      -- From each day on which the count changes to the next such day: "active" rows each day.
      SELECT day, lead(day) OVER (ORDER BY day) AS next_day, (sum(delta) OVER (ORDER BY day))::bigint AS active FROM per_day
    ), sized AS (
      SELECT day, active, active * (next_day - day)::bigint AS rows FROM segments WHERE next_day IS NOT NULL AND active > 0
    ), placed AS (
      SELECT day, active, rows, (sum(rows) OVER (ORDER BY day))::bigint - rows AS before FROM sized
    )
    SELECT (SELECT coalesce(sum(rows), 0) FROM placed)::bigint AS total,
           (SELECT (day + (${skip}::bigint - before) / active)::int FROM placed WHERE before <= ${skip}::bigint AND ${skip}::bigint < before + rows) AS first_day,
           (SELECT (before + ((${skip}::bigint - before) / active) * active)::bigint FROM placed
             WHERE before <= ${skip}::bigint AND ${skip}::bigint < before + rows) AS before_first,
           -- A last page shorter than take: its last row is on the last day with rows.
           coalesce((SELECT (day + (${lastIndex}::bigint - before) / active)::int FROM placed WHERE before <= ${lastIndex}::bigint AND ${lastIndex}::bigint < before + rows),
                    (SELECT (day + rows / active - 1)::int FROM placed ORDER BY day DESC LIMIT 1)) AS last_day`;
  const total = Number(found!.total);
  if (found!.first_day === null) return { total, firstDay: null, lastDay: null, rowsBeforeFirstDay: 0 };
  return { total, firstDay: found!.first_day, lastDay: found!.last_day, rowsBeforeFirstDay: Number(found!.before_first) };
}

/**
 * Holdings are days of position spans (holding_spans): a list generates the days of the spans
 * its filters select, pages them in Sure's order, then prices only the page's days.
 */
export function createHoldingRepository(db: FinanceDb) {
  return {
    /** Oldest first, as Sure's chronological order (then by security and account, so pages are stable); days up to today. */
    async list(familyId: string, query: QueryOf<"holdings.list">) {
      // The days asked for: an exact date and a range together both apply; never after today.
      const lows = [query.date, query.start_date].filter((day): day is string => day !== undefined).map(isoToDayNumber);
      const highs = [query.date, query.end_date, todayIso()].filter((day): day is string => day !== undefined).map(isoToDayNumber);
      const low = lows.length > 0 ? Math.max(...lows) : null;
      const high = Math.min(...highs);
      if (low !== null && low > high) return { rows: [], total: 0 };

      const filters: Prisma.Sql[] = [
        Prisma.sql`s.family_id = ${familyId}::uuid`,
        Prisma.sql`a.status <> 'pending_deletion'`,
        Prisma.sql`s.start_date <= DATE '1970-01-01' + ${high}::int`,
      ];
      if (low !== null) filters.push(Prisma.sql`(s.end_date IS NULL OR s.end_date >= DATE '1970-01-01' + ${low}::int)`);
      if (query.account_id) filters.push(Prisma.sql`s.account_id = ${query.account_id}::uuid`);
      if (query.account_ids) filters.push(Prisma.sql`s.account_id = ANY(${query.account_ids}::uuid[])`);
      if (query.security_id) filters.push(Prisma.sql`s.security_id = ${query.security_id}::uuid`);
      const where = Prisma.join(filters, " AND ");
      // Each span's days within [low, high].
      const first = low === null ? dayOfDate("s.start_date") : Prisma.sql`GREATEST(${dayOfDate("s.start_date")}, ${low}::int)`;
      const last = Prisma.sql`LEAST(coalesce(${dayOfDate("s.end_date")}, ${high}::int), ${high}::int)`;
      const { skip, take } = pageWindow(query);

      // One snapshot for the count, the page and its prices, so a sync committing in between cannot make them disagree.
      return db.$transaction(
        async (tx) => {
          // The planner guesses 1,000 rows per generate_series and would JIT-compile a query that runs in milliseconds.
          await tx.$executeRaw`SET LOCAL jit = off`;
          const window = await pageDays(tx, where, first, last, skip, take);
          if (window.firstDay === null) return { rows: [], total: window.total };
          // Only the spans with days in the page's first to last day: a page never generates the family's whole history.
          const page = await tx.$queryRaw<SpanDayRow[]>`
            SELECT ${SPAN_DAY_COLUMNS}
              FROM holding_spans s JOIN accounts a ON a.id = s.account_id JOIN securities sec ON sec.id = s.security_id
             CROSS JOIN LATERAL generate_series(GREATEST(${first}, ${window.firstDay}::int), LEAST(${last}, ${window.lastDay}::int)) AS d(day)
             WHERE ${where} AND s.start_date <= DATE '1970-01-01' + ${window.lastDay}::int
               AND (s.end_date IS NULL OR s.end_date >= DATE '1970-01-01' + ${window.firstDay}::int)
             ORDER BY d.day, s.security_id, s.account_id, s.currency
             LIMIT ${take} OFFSET ${skip - window.rowsBeforeFirstDay}`;
          return { rows: await priceSpanDays(tx, familyId, page.map(spanDayOf)), total: window.total };
        },
        { isolationLevel: "RepeatableRead" },
      );
    },

    async get(familyId: string, id: string): Promise<HoldingRow> {
      const parsed = parseHoldingId(id);
      const today = isoToDayNumber(todayIso());
      if (!parsed || parsed.day > today) throw AppError.notFound("Holding");
      const found = await db.$queryRaw<SpanDayRow[]>`
        SELECT ${SPAN_DAY_COLUMNS}
          FROM holding_spans s JOIN accounts a ON a.id = s.account_id JOIN securities sec ON sec.id = s.security_id
          CROSS JOIN (SELECT ${parsed.day}::int AS day) AS d
         WHERE s.family_id = ${familyId}::uuid AND s.position_key = ${parsed.positionKey}::uuid AND a.status <> 'pending_deletion'
           AND s.start_date <= DATE '1970-01-01' + ${parsed.day}::int AND (s.end_date IS NULL OR s.end_date >= DATE '1970-01-01' + ${parsed.day}::int)
         ORDER BY s.start_date DESC LIMIT 1`;
      if (found.length === 0) throw AppError.notFound("Holding");
      const [row] = await priceSpanDays(db, familyId, found.map(spanDayOf));
      return row!;
    },
  };
}
export type HoldingRepository = ReturnType<typeof createHoldingRepository>;
