import { minorUnitDigits } from "@hearth/contracts";
import { Prisma } from "../generated/prisma/client";
import { ACCOUNTABLE_TYPES } from "./sure-values";

/*
 * The export's rows are written as text by PostgreSQL and streamed out by COPY: a million rows
 * read as JavaScript objects would cost several hundred MB of short-lived heap. These build the
 * SQL for Sure's formats; each takes SQL expressions (of columns, so that a subquery is not run
 * again for every use).
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

/** A whole amount of `unit` minor units (a power of ten above 1) as a plain decimal, in integer arithmetic: "-0.05", "1.5", "12.0". */
const decimalOfUnits = (cents: Prisma.Sql, unit: number): Prisma.Sql => Prisma.sql`
  CASE WHEN ${cents} < 0 THEN '-' ELSE '' END || (abs(${cents}) / ${Prisma.raw(String(unit))})::text || '.'
    || coalesce(nullif(rtrim(substr((abs(${cents}) % ${Prisma.raw(String(unit))} + ${Prisma.raw(String(unit))})::text, 2), '0'), ''), '0')`;

/**
 * An amount in minor units as the plain decimal of its currency, exact: in integer arithmetic
 * for the currencies of 2, 0 and 3 digits (every one Intl knows), by numeric division otherwise.
 */
export const amountSql = (cents: Prisma.Sql, currency: Prisma.Sql): Prisma.Sql => {
  const whole = Prisma.sql`(${cents})`;
  return Prisma.sql`(CASE coalesce((${currencyDigitsJson()}::jsonb ->> ${currency})::int, 2)
    WHEN 2 THEN ${decimalOfUnits(whole, 100)}
    WHEN 0 THEN ${whole}::text || '.0'
    WHEN 3 THEN ${decimalOfUnits(whole, 1000)}
    ELSE ${plainNumericSql(Prisma.sql`(${whole}::numeric / power(10::numeric, (${currencyDigitsJson()}::jsonb ->> ${currency})::int))`)} END)`;
};

/** csv-cell.ts's NEEDS_FORMULA_GUARD for PostgreSQL's regular expressions (the same characters; a bound parameter). */
const CSV_GUARD_PATTERN = "^([ \t\n\v\f\r]*[-=+@\uFF1D\uFF0B\uFF0D\uFF20]|[\t\r'])";

/**
 * A text cell of a CSV row with csv-cell.ts's formula-injection guard (csvText): text starting with
 * = + - @ TAB or CR gets a leading "'", so a spreadsheet shows it rather than runs it; other text
 * and NULL as they are. For the text people and banks wrote only: never for amountSql's and
 * plainNumericSql's numbers (a negative amount must stay a number), dates, ids or enum labels.
 */
export const csvTextSql = (text: Prisma.Sql): Prisma.Sql => Prisma.sql`(CASE WHEN ${text} ~ ${CSV_GUARD_PATTERN} THEN '''' || ${text} ELSE ${text} END)`;

/** A timestamp as ActiveSupport's JSON writes it: UTC, milliseconds, "Z". */
export const jsonTimeSql = (at: Prisma.Sql): Prisma.Sql => Prisma.sql`to_char(${at} AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`;

/** A timestamp as Time#iso8601 writes it in Sure's UTC zone: whole seconds, "Z". */
export const csvTimeSql = (at: Prisma.Sql): Prisma.Sql => Prisma.sql`to_char(${at} AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"')`;

/** Sure's Accountable class name of an account type ("credit_card" → "CreditCard"). */
export const accountableTypeSql = (accountType: Prisma.Sql): Prisma.Sql => Prisma.sql`(${JSON.stringify(ACCOUNTABLE_TYPES)}::jsonb ->> ${accountType}::text)`;

/** Text known to hold nothing JSON escapes (an id, an ISO date or time, a decimal, an enum label): written between quotes as it is. */
export interface JsonToken {
  token: Prisma.Sql;
}
export const token = (text: Prisma.Sql): JsonToken => ({ token: text });

/** JSON text written in as it is (a nested object). */
export interface JsonText {
  json: Prisma.Sql;
}

/** A field of a JSON object: any SQL value (written by to_json, as row_to_json would), a token, or JSON text. */
export type JsonField = Prisma.Sql | JsonToken | JsonText;

/** A column of the rows a part reads (their alias is `r`: export-rows-sql.ts's selectOverRows). */
export const col = (name: string): Prisma.Sql => Prisma.raw(`r.${name}`);

/** A column holding an id, an ISO date or an enum label, as a JSON token. */
export const tokenCol = (name: string): JsonToken => token(col(name));

/** Sure's created_at and updated_at of the row, as ActiveSupport's JSON writes them. */
export const timestampFields = (): Record<"created_at" | "updated_at", JsonToken> => ({
  created_at: token(jsonTimeSql(col("created_at"))),
  updated_at: token(jsonTimeSql(col("updated_at"))),
});

const fieldValue = (field: JsonField): Prisma.Sql => {
  if ("token" in field) return Prisma.sql`coalesce('"' || ${field.token} || '"', 'null')`;
  if ("json" in field) return Prisma.sql`coalesce(${field.json}, 'null')`;
  return Prisma.sql`coalesce(to_json(${field})::text, 'null')`;
};

/**
 * A compact JSON object of `fields` in their order ({"a":1,"b":"x"}, NULL as null), concatenated
 * field by field: what row_to_json writes, at about half its cost (no row built per line).
 */
export const jsonObjectSql = (fields: Record<string, JsonField>): Prisma.Sql =>
  Prisma.sql`(${Prisma.join(
    Object.entries(fields).map(([key, field], i) => Prisma.sql`${`${i === 0 ? "{" : ","}${JSON.stringify(key)}:`} || ${fieldValue(field)}`),
    " || ",
  )} || '}')`;

/** One all.ndjson line: {"type":…,"data":{…}}, the data's keys in the order of `fields`. */
export const recordSql = (type: string, fields: Record<string, JsonField>): Prisma.Sql =>
  Prisma.sql`${`{"type":${JSON.stringify(type)},"data":`} || ${jsonObjectSql(fields)} || '}'`;

/** A nested JSON object of `fields` ({"subtype":"savings"}). */
export const objectField = (fields: Record<string, JsonField>): JsonText => ({ json: jsonObjectSql(fields) });
