import { minorUnitDigits } from "@hearth/contracts";
import { Prisma } from "../generated/prisma/client";
import { ACCOUNTABLE_TYPES } from "./sure-values";

/*
 * The export's rows are written as text by PostgreSQL, a batch to one string: a million rows
 * read as JavaScript objects cost several hundred MB of short-lived heap, their text a few MB a
 * batch. These build the SQL for Sure's formats; each takes SQL expressions (of columns, so that
 * a subquery is not run again for every use).
 */

let digitsJson: string | null = null;
/** The minor-unit digits of every currency that has other than two (JPY 0, KWD 3…), as JSON. */
function currencyDigitsJson(): string {
  digitsJson ??= JSON.stringify(
    Object.fromEntries(
      Intl.supportedValuesOf("currency")
        .map((code) => [code, minorUnitDigits(code)] as const)
        .filter(([, digits]) => digits !== 2),
    ),
  );
  return digitsJson;
}

/** Ruby's BigDecimal#to_s (Rails' "F" format) of a numeric: the plainest decimal with a fraction digit, "42.5", "1000.0", "-0.05". */
export const plainNumericSql = (value: Prisma.Sql): Prisma.Sql => Prisma.sql`regexp_replace(trim_scale((${value}))::text, '^(-?[0-9]+)$', '\\1.0')`;

/** An amount in minor units as the plain decimal of its currency (exact: numeric division by a power of ten). */
export const amountSql = (cents: Prisma.Sql, currency: Prisma.Sql): Prisma.Sql =>
  plainNumericSql(Prisma.sql`((${cents})::numeric / power(10::numeric, coalesce((${currencyDigitsJson()}::jsonb ->> ${currency})::int, 2)))`);

/** A timestamp as ActiveSupport's JSON writes it: UTC, milliseconds, "Z". */
export const jsonTimeSql = (at: Prisma.Sql): Prisma.Sql => Prisma.sql`to_char(${at} AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`;

/** A timestamp as Time#iso8601 writes it in Sure's UTC zone: whole seconds, "Z". */
export const csvTimeSql = (at: Prisma.Sql): Prisma.Sql => Prisma.sql`to_char(${at} AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"')`;

/** A date as ISO 8601 ("2026-03-05"), whatever the session's DateStyle. */
export const dateSql = (day: Prisma.Sql): Prisma.Sql => Prisma.sql`to_char(${day}, 'YYYY-MM-DD')`;

/** Sure's Accountable class name of an account type ("credit_card" → "CreditCard"). */
export const accountableTypeSql = (accountType: Prisma.Sql): Prisma.Sql => Prisma.sql`(${JSON.stringify(ACCOUNTABLE_TYPES)}::jsonb ->> ${accountType}::text)`;

/**
 * A CSV cell as Ruby's CSV writes it (see csv-cell.ts): NULL empty, "" quoted, a value with a
 * comma, quote, CR or LF quoted with its quotes doubled, anything else as it is.
 */
export const csvCellSql = (text: Prisma.Sql): Prisma.Sql =>
  Prisma.sql`CASE WHEN ${text} IS NULL THEN '' WHEN ${text} = '' OR ${text} ~ E'[",\\r\\n]' THEN '"' || replace(${text}, '"', '""') || '"' ELSE ${text} END`;

/** A CSV line of text expressions, newline included. */
export const csvLineSql = (cells: Prisma.Sql[]): Prisma.Sql => Prisma.sql`concat_ws(',', ${Prisma.join(cells.map(csvCellSql), ", ")}) || E'\\n'`;

/**
 * One all.ndjson line: {"type":…,"data":{…}} with the data's keys in the order `data` selects
 * them (row_to_json keeps it, and writes compact JSON as Rails does).
 */
export const recordSql = (type: string, data: Prisma.Sql): Prisma.Sql =>
  Prisma.sql`${`{"type":"${type}","data":`} || (SELECT row_to_json(d) FROM (SELECT ${data}) d)::text || '}'`;

/** A nested JSON object of named expressions, compact ({"subtype":"savings"}). */
export const objectSql = (fields: Prisma.Sql): Prisma.Sql => Prisma.sql`(SELECT row_to_json(o) FROM (SELECT ${fields}) o)`;
