import type { FinanceTx } from "../db";
import { exportedAccount } from "./export-rows-sql";

/** A position the export writes Holding records of (an account's security in one currency), with its security. */
export interface ExportedPosition {
  position_key: string;
  account_id: string;
  currency: string;
  security_id: string;
  ticker: string;
  security_name: string | null;
  exchange_operating_mic: string | null;
  exchange_mic: string | null;
  exchange_acronym: string | null;
  country_code: string | null;
  kind: string;
  website_url: string | null;
}

/** A span of a position, its days as day numbers (days since 1970-01-01) and its numbers as text (exact). */
export interface ExportedSpan {
  start_day: number;
  end_day: number | null;
  qty: string;
  avg_cost: string | null;
  trade_price: string;
  trade_price_day: number;
}

/** The family's positions in its exported accounts, one per account, security and currency. */
export const exportedPositions = (db: FinanceTx, familyId: string): Promise<ExportedPosition[]> =>
  db.$queryRaw<ExportedPosition[]>`
    SELECT DISTINCT ON (s.account_id, s.security_id, s.currency) s.position_key::text AS position_key, s.account_id::text AS account_id, s.currency,
           sec.id::text AS security_id, sec.ticker, sec.name AS security_name, sec.exchange_operating_mic, sec.exchange_mic, sec.exchange_acronym,
           sec.country_code, sec.kind::text AS kind, sec.website_url
      FROM holding_spans s
      JOIN accounts a ON a.id = s.account_id
      JOIN securities sec ON sec.id = s.security_id AND sec.family_id = s.family_id
     WHERE s.family_id = ${familyId}::uuid AND ${exportedAccount("a", familyId)}
     ORDER BY s.account_id, s.security_id, s.currency`;

/** The position's spans that start by day number `today`, in date order. */
export const positionSpans = (db: FinanceTx, familyId: string, position: ExportedPosition, today: number): Promise<ExportedSpan[]> =>
  db.$queryRaw<ExportedSpan[]>`
    SELECT (start_date - DATE '1970-01-01')::int AS start_day, (end_date - DATE '1970-01-01')::int AS end_day, qty::text AS qty,
           avg_cost::text AS avg_cost, trade_price::text AS trade_price, (trade_price_date - DATE '1970-01-01')::int AS trade_price_day
      FROM holding_spans
     WHERE family_id = ${familyId}::uuid AND account_id = ${position.account_id}::uuid AND security_id = ${position.security_id}::uuid
       AND currency = ${position.currency} AND (start_date - DATE '1970-01-01') <= ${today}
     ORDER BY start_date`;
