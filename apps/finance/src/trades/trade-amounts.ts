// A trade's numbers as Sure's Trade::CreateForm makes them: the entry amount of a buy or sell is
// signed qty x price + fee (a buy is an outflow of cash, positive; a sell an inflow), its name
// "Buy 10.0 shares of AAPL" (Trade.build_name, whose quantity prints as Ruby's BigDecimal#to_s:
// Sure's trade_test.rb "Buy 10.0 shares of AAPL", "Buy 0.25 shares of BTC").
import { AppError, MAX_AMOUNT_CENTS, minorUnitDigits } from "@hearth/contracts";
import { roundHalfAwayFromZero } from "../exchange-rates/convert";
import { QTY_SCALE, plainScaled, toScaled } from "../holdings/fixed-point";

/** Trade prices keep ten decimals (the column's scale). */
export const TRADE_PRICE_SCALE = 10;
/** Fees keep four. */
const FEE_SCALE = 4;

/** Minor units of signed qty x price + fee, rounded once (half away from zero) to the currency's minor unit. */
export function tradeAmountCents(signedQty: bigint, priceText: string, feeText: string, currency: string): bigint {
  const price = toScaled(priceText, TRADE_PRICE_SCALE);
  const fee = toScaled(feeText, FEE_SCALE);
  const scale = QTY_SCALE + TRADE_PRICE_SCALE;
  const exact = signedQty * price + fee * 10n ** BigInt(scale - FEE_SCALE);
  const cents = roundHalfAwayFromZero(exact, 10n ** BigInt(scale - minorUnitDigits(currency)));
  // The bound every entry's amount keeps (sums stay exact JavaScript numbers on the wire).
  if (cents > MAX_AMOUNT_CENTS || cents < -MAX_AMOUNT_CENTS)
    throw AppError.validation([`qty x price must be at most ${MAX_AMOUNT_CENTS.toString()} minor units`]);
  return cents;
}

/** Minor units of a unit price (up to ten decimals) in its currency, for display. */
export function priceCents(priceText: string, currency: string): bigint {
  return roundHalfAwayFromZero(toScaled(priceText, TRADE_PRICE_SCALE), 10n ** BigInt(TRADE_PRICE_SCALE - minorUnitDigits(currency)));
}

/** Sure's Trade.build_name. */
export function tradeName(kind: "buy" | "sell", signedQty: bigint, ticker: string): string {
  const size = signedQty < 0n ? -signedQty : signedQty;
  return `${kind === "sell" ? "Sell" : "Buy"} ${plainScaled(size, QTY_SCALE)} shares of ${ticker}`;
}

/** A quantity as Ruby prints a BigDecimal ("10.0", "-2.5"), from the column's text. */
export function qtyText(qty: string): string {
  return plainScaled(toScaled(qty, QTY_SCALE), QTY_SCALE);
}
