import { AppError } from "@hearth/contracts";
import type { FinanceTx } from "../db";

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
    const security = await tx.security.findFirst({ where: { id: name.security_id, familyId } });
    if (!security) throw AppError.notFound("Security");
    return security;
  }
  const text = name.ticker ?? name.manual_ticker;
  if (text === undefined) throw AppError.validation(["Provide security_id, ticker, or manual_ticker"]);
  const { ticker, exchangeOperatingMic } = tickerOf(text);
  if (ticker === "") throw AppError.validation(["Ticker can't be blank"]);
  const existing = await tx.security.findUnique({ where: { familyId_ticker: { familyId, ticker } } });
  if (existing) return existing;
  // ON CONFLICT DO NOTHING, then read: a unique violation inside a transaction would abort it.
  await tx.$executeRaw`
    INSERT INTO securities (id, family_id, ticker, exchange_operating_mic, offline, kind, created_at, updated_at)
    VALUES (gen_random_uuid(), ${familyId}::uuid, ${ticker}, ${exchangeOperatingMic}, true, 'standard', now(), now())
    ON CONFLICT (family_id, ticker) DO NOTHING`;
  return tx.security.findUniqueOrThrow({ where: { familyId_ticker: { familyId, ticker } } });
}

/** Sure's Security.cash_for: the account's own cash security ("CASH-<ACCOUNT ID>"), where interest without a ticker goes. */
export async function cashSecurityOf(tx: FinanceTx, familyId: string, account: { id: string }) {
  const ticker = `CASH-${account.id}`.toUpperCase();
  await tx.$executeRaw`
    INSERT INTO securities (id, family_id, ticker, name, offline, kind, created_at, updated_at)
    VALUES (gen_random_uuid(), ${familyId}::uuid, ${ticker}, 'Cash', true, 'cash', now(), now())
    ON CONFLICT (family_id, ticker) DO NOTHING`;
  return tx.security.findUniqueOrThrow({ where: { familyId_ticker: { familyId, ticker } } });
}
