import { Prisma } from "../generated/prisma/client";

/**
 * SQL pieces the identifier and the cleaner share. Dates are cast to `timestamp` (no time zone)
 * before month arithmetic, so the session's time zone can never move a day.
 */

/** Sure's Transaction::TRANSFER_KINDS: one half of a movement between accounts, never a bill. */
export const TRANSFER_KINDS_SQL = Prisma.sql`('funds_movement', 'cc_payment', 'loan_payment', 'investment_contribution')`;

/** The number of days in the month of a date expression. */
export function daysInMonthSql(date: Prisma.Sql): Prisma.Sql {
  return Prisma.sql`EXTRACT(DAY FROM date_trunc('month', (${date})::timestamp) + interval '1 month' - interval '1 day')::int`;
}

/** Sure's calculate_next_expected_date in SQL (next-expected-date.ts is its reference): `day` of the month after `last`, clamped to that month's end. */
export function nextExpectedDateSql(last: Prisma.Sql, day: Prisma.Sql): Prisma.Sql {
  const nextMonth = Prisma.sql`(date_trunc('month', (${last})::timestamp) + interval '1 month')`;
  return Prisma.sql`(${nextMonth}::date + (LEAST(${day}, ${daysInMonthSql(nextMonth)}) - 1))`;
}

/** Sure's circular_distance: two days of the month on a 31-day circle (31 and 1 are 1 apart). */
export function circularDistanceSql(a: Prisma.Sql, b: Prisma.Sql): Prisma.Sql {
  return Prisma.sql`LEAST(abs((${a}) - (${b})), 31 - abs((${a}) - (${b})))`;
}

/** identityKeyOf (recurring-identity.ts) in SQL, over columns of a row named `alias` (account_id, merchant_id, name, amount_cents, currency). */
export function identityKeySql(alias: string): Prisma.Sql {
  const column = (name: string) => Prisma.raw(`${alias}.${name}`);
  return Prisma.sql`(COALESCE(${column("account_id")}::text, '-') || '|' || ${column("currency")} || '|' || ${column("amount_cents")}::text || '|' ||
    CASE WHEN ${column("merchant_id")} IS NOT NULL THEN 'm:' || ${column("merchant_id")}::text ELSE 'n:' || COALESCE(${column("name")}, '') END)`;
}
