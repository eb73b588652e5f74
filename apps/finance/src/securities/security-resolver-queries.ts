import type { FinanceTx } from "../db";

// A security is made with ON CONFLICT DO NOTHING, then read: a unique violation inside a
// transaction would abort it.

/** The family's security with this id (null for another family's). */
export function familySecurity(tx: FinanceTx, familyId: string, id: string) {
  return tx.security.findFirst({ where: { id, familyId } });
}

export function securityByTicker(tx: FinanceTx, familyId: string, ticker: string) {
  return tx.security.findUnique({ where: { familyId_ticker: { familyId, ticker } } });
}

function madeSecurity(tx: FinanceTx, familyId: string, ticker: string) {
  return tx.security.findUniqueOrThrow({ where: { familyId_ticker: { familyId, ticker } } });
}

/** The family's offline security of the ticker, made if missing. */
export async function offlineSecurity(tx: FinanceTx, familyId: string, ticker: string, exchangeOperatingMic: string | null) {
  await tx.$executeRaw`
    INSERT INTO securities (id, family_id, ticker, exchange_operating_mic, offline, kind, created_at, updated_at)
    VALUES (gen_random_uuid(), ${familyId}::uuid, ${ticker}, ${exchangeOperatingMic}, true, 'standard', now(), now())
    ON CONFLICT (family_id, ticker) DO NOTHING`;
  return madeSecurity(tx, familyId, ticker);
}

/** The family's cash security of the ticker, made if missing. */
export async function cashSecurity(tx: FinanceTx, familyId: string, ticker: string) {
  await tx.$executeRaw`
    INSERT INTO securities (id, family_id, ticker, name, offline, kind, created_at, updated_at)
    VALUES (gen_random_uuid(), ${familyId}::uuid, ${ticker}, 'Cash', true, 'cash', now(), now())
    ON CONFLICT (family_id, ticker) DO NOTHING`;
  return madeSecurity(tx, familyId, ticker);
}
