import { AppError } from "@hearth/contracts";
import type { FinanceTx } from "../db";
import { cashSecurity, familySecurity, offlineSecurity, securityByTicker } from "./security-resolver-queries";

/** How a request names a security: its id, a ticker, or a manual ticker (the same thing here: no provider is reachable). */
export interface SecurityName {
  security_id?: string | undefined;
  ticker?: string | undefined;
  manual_ticker?: string | undefined;
}

/**
 * Sure's combobox value "AAPL|XNAS" carries the exchange after a bar; the ticker is what comes
 * before it, upper case, as Sure's Security::Resolver stores it.
 */
export function tickerOf(text: string): { ticker: string; exchangeOperatingMic: string | null } {
  const [ticker = "", mic = ""] = text.split("|");
  return { ticker: ticker.trim().toUpperCase(), exchangeOperatingMic: mic.trim() === "" ? null : mic.trim().toUpperCase() };
}

/**
 * The family's security a request names. An id must be the family's own (else 404 "Security
 * not found", whoever else has it); a ticker the family has not seen becomes an offline security,
 * as Sure's resolver makes one when no provider knows the ticker. Two requests creating the same
 * ticker at once both end with the one row (the unique index decides).
 */
export async function resolveSecurity(tx: FinanceTx, familyId: string, name: SecurityName) {
  if (name.security_id !== undefined) {
    const security = await familySecurity(tx, familyId, name.security_id);
    if (!security) throw AppError.notFound("Security");
    return security;
  }
  const text = name.ticker ?? name.manual_ticker;
  if (text === undefined) throw AppError.validation(["Provide security_id, ticker, or manual_ticker"]);
  const { ticker, exchangeOperatingMic } = tickerOf(text);
  if (ticker === "") throw AppError.validation(["Ticker can't be blank"]);
  return (await securityByTicker(tx, familyId, ticker)) ?? offlineSecurity(tx, familyId, ticker, exchangeOperatingMic);
}

/** Sure's Security.cash_for: the account's own cash security ("CASH-<ACCOUNT ID>"), where interest without a ticker goes. */
export async function cashSecurityOf(tx: FinanceTx, familyId: string, account: { id: string }) {
  return cashSecurity(tx, familyId, `CASH-${account.id}`.toUpperCase());
}
