import { Prisma } from "../generated/prisma/client";
import { afterDateAndId, exportedAccount, keysetBatches, type ExportScope } from "./export-scope";
import type { RecordSection } from "./sure-record";
import { amountText, jsonTime, numericText, optionalNumericText } from "./sure-values";
import { tradeBatches } from "./trades-csv";

/** Trade records: Sure's trade data with its security's identity; the entry's id is the trade's id and entry_id. */
export async function* tradeRecords(scope: ExportScope): RecordSection {
  for await (const rows of tradeBatches(scope, "all.ndjson:Trade")) {
    yield rows.map((t) => ({
      type: "Trade",
      data: {
        id: t.id,
        entry_id: t.id,
        account_id: t.account_id,
        security_id: t.security_id,
        ticker: t.ticker,
        security_name: t.security_name,
        exchange_operating_mic: t.exchange_operating_mic,
        date: t.date,
        qty: numericText(t.qty),
        price: numericText(t.price),
        amount: amountText(t.amount_cents, t.entry_currency),
        currency: t.currency,
        created_at: jsonTime(t.created_at),
        updated_at: jsonTime(t.updated_at),
      },
    }));
  }
}

interface HoldingRow {
  id: string;
  account_id: string;
  security_id: string;
  ticker: string;
  security_name: string | null;
  exchange_operating_mic: string | null;
  exchange_mic: string | null;
  exchange_acronym: string | null;
  country_code: string | null;
  kind: string;
  website_url: string | null;
  date: string;
  qty: string;
  price: string;
  amount_cents: bigint;
  currency: string;
  avg_cost: string | null;
  cost_basis_source: string | null;
}

/**
 * Holding records: Sure's holding snapshot with its security; Hearth's average cost per unit is
 * Sure's cost_basis. By (date, id), the (family, date) index.
 */
export async function* holdingRecords(scope: ExportScope): RecordSection {
  const batches = keysetBatches<HoldingRow>(
    scope,
    "all.ndjson:Holding",
    (after, limit) => Prisma.sql`
      SELECT h.id::text AS id, h.account_id::text AS account_id, s.id::text AS security_id, s.ticker, s.name AS security_name,
             s.exchange_operating_mic, s.exchange_mic, s.exchange_acronym, s.country_code, s.kind::text AS kind, s.website_url,
             h.date::text AS date, h.qty::text AS qty, h.price::text AS price, h.amount_cents, h.currency,
             h.avg_cost::text AS avg_cost, h.cost_basis_source
        FROM holdings h
        JOIN accounts a ON a.id = h.account_id
        JOIN securities s ON s.id = h.security_id AND s.family_id = h.family_id
       WHERE h.family_id = ${scope.familyId}::uuid AND ${exportedAccount("a", scope.familyId)} ${afterDateAndId("h", after)}
       ORDER BY h.date, h.id
       LIMIT ${limit}`,
  );
  for await (const rows of batches) {
    yield rows.map((h) => ({
      type: "Holding",
      data: {
        id: h.id,
        account_id: h.account_id,
        security_id: h.security_id,
        ticker: h.ticker,
        security_name: h.security_name,
        exchange_operating_mic: h.exchange_operating_mic,
        exchange_mic: h.exchange_mic,
        exchange_acronym: h.exchange_acronym,
        country_code: h.country_code,
        kind: h.kind,
        website_url: h.website_url,
        date: h.date,
        qty: numericText(h.qty),
        price: numericText(h.price),
        amount: amountText(h.amount_cents, h.currency),
        currency: h.currency,
        cost_basis: optionalNumericText(h.avg_cost),
        cost_basis_source: h.cost_basis_source,
      },
    }));
  }
}
