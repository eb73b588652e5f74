import { minorUnitDigits } from "@hearth/contracts";
import { dayNumberToIso, isoToDayNumber } from "../balances/calendar-days";
import { PRICE_SCALE, QTY_SCALE, plainScaled, toScaled } from "../holdings/fixed-point";
import { MissingExchangeRate } from "../exchange-rates/rate-book";
import type { PriceSeries } from "../holdings/holding-calculator";
import { positionDays, type PricedDay, type SpanDay } from "../holdings/holding-days";
import { createPriceConverter, loadPriceSeries, type PriceConverter } from "../holdings/holding-prices";
import { todayIso } from "../ledger/dates";
import { amountSql, col, plainNumericSql, timestampFields, token, tokenCol } from "./export-format-sql";
import { countRows, read, type ExportScope } from "./export-scope";
import { exportedPositions, positionSpans, type ExportedPosition } from "./holding-export-queries";
import { recordSection, type RecordSection } from "./sure-record";
import { tradeRows } from "./trades-csv-sql";

/** Trade records: Sure's trade data with its security's identity; the entry's id is the trade's id and entry_id. */
export const tradeRecords = recordSection("Trade", tradeRows, {
  id: tokenCol("id"),
  entry_id: tokenCol("id"),
  account_id: tokenCol("account_id"),
  security_id: tokenCol("security_id"),
  ticker: col("ticker"),
  security_name: col("security_name"),
  exchange_operating_mic: col("exchange_operating_mic"),
  date: tokenCol("date"),
  qty: token(plainNumericSql(col("qty"))),
  price: token(plainNumericSql(col("price"))),
  amount: token(amountSql(col("amount_cents"), col("entry_currency"))),
  currency: col("currency"),
  ...timestampFields(),
});

/** What the export's converter answers for a price it has no rate for: never a price (prices are positive). */
const UNCONVERTED = -1n;

/** The series without the prices left unconverted. */
function convertedOnly(series: PriceSeries | undefined): PriceSeries | undefined {
  if (!series) return series;
  const kept = Array.from({ length: series.prices.length }, (_, i) => i).filter((i) => series.prices[i] !== UNCONVERTED);
  return kept.length === series.prices.length ? series : { days: kept.map((i) => series.days[i]!), prices: kept.map((i) => series.prices[i]!) };
}

/** Holding records per 1,000 lines. */
const HOLDING_LINES_PER_CHUNK = 1000;

/**
 * Holding records: Sure's holding snapshot with its security, one per position and day up to
 * today; Hearth's average cost per unit is Sure's cost_basis. Holdings are days of position spans
 * priced as reads price them (holding-days.ts), so they are built here a position at a time (its
 * spans and its security's prices), not in SQL: memory holds one position, whatever the family's size.
 */
export const holdingRecords: RecordSection = {
  type: "Holding",
  async *lines(scope: ExportScope): AsyncGenerator<string> {
    const part = "all.ndjson:Holding";
    const today = isoToDayNumber(todayIso());
    const positions = await read(scope, () => exportedPositions(scope.db, scope.familyId));
    const converters = new Map<string, PriceConverter>();
    for (const position of positions) {
      const spans = await read(scope, () => positionSpans(scope.db, scope.familyId, position, today));
      if (spans.length === 0) continue;
      let convert = converters.get(position.currency);
      if (!convert) {
        convert = createPriceConverter(scope.db, scope.familyId, position.currency);
        converters.set(position.currency, convert);
      }
      // Prices before the first trade day never win over its trade's price: the series starts there.
      // A price no stored rate converts is left out (the day keeps the last price that converts, or
      // the trade's): the sync fails on it and says so, but the family's data still comes out.
      const lenient: PriceConverter = (price, currency, date) =>
        convert(price, currency, date).catch((err: unknown) => {
          if (err instanceof MissingExchangeRate) return UNCONVERTED;
          throw err;
        });
      const prices = await read(scope, () =>
        loadPriceSeries(
          scope.db,
          { familyId: scope.familyId, currency: position.currency },
          [position.security_id],
          dayNumberToIso(spans[0]!.start_day),
          dayNumberToIso(today),
          lenient,
        ),
      );
      const spanDays = spans.map((span) => ({
        positionKey: position.position_key,
        securityId: position.security_id,
        currency: position.currency,
        qty: toScaled(span.qty, QTY_SCALE),
        avgCost: span.avg_cost === null ? null : toScaled(span.avg_cost, PRICE_SCALE),
        tradePrice: toScaled(span.trade_price, PRICE_SCALE),
        tradePriceDay: span.trade_price_day,
      }));
      const ends = spans.map((span) => Math.min(span.end_day ?? today, today));
      let lines: string[] = [];
      for (const day of positionDays<SpanDay>(
        spanDays,
        convertedOnly(prices.get(position.security_id)),
        spans.map((span) => span.start_day),
        ends,
      )) {
        lines.push(`${JSON.stringify({ type: "Holding", data: holdingData(position, day) })}\n`);
        if (lines.length === HOLDING_LINES_PER_CHUNK) {
          countRows(scope, part, lines.length);
          yield lines.join("");
          lines = [];
        }
      }
      if (lines.length > 0) {
        countRows(scope, part, lines.length);
        yield lines.join("");
      }
    }
  },
};

/** A Holding record's data, in Sure's field order, its numbers as Ruby's BigDecimal prints them. */
function holdingData(position: ExportedPosition, day: PricedDay) {
  const { span } = day;
  return {
    id: day.id,
    account_id: position.account_id,
    security_id: position.security_id,
    ticker: position.ticker,
    security_name: position.security_name,
    exchange_operating_mic: position.exchange_operating_mic,
    exchange_mic: position.exchange_mic,
    exchange_acronym: position.exchange_acronym,
    country_code: position.country_code,
    kind: position.kind,
    website_url: position.website_url,
    date: day.date,
    qty: plainScaled(span.qty, QTY_SCALE),
    price: plainScaled(day.price, PRICE_SCALE),
    amount: plainScaled(day.amountCents, minorUnitDigits(position.currency)),
    currency: position.currency,
    cost_basis: span.avgCost === null ? null : plainScaled(span.avgCost, PRICE_SCALE),
    cost_basis_source: span.avgCost === null ? null : "calculated",
    // Hearth computes every cost basis from trades and never re-points a holding's security by
    // hand: neither is locked (written, as Sure's exporter writes them, for its importer to read).
    cost_basis_locked: false,
    security_locked: false,
  };
}
