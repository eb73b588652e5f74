import type { SureSecurityValues } from "../../ndjson";
import type { SurePublishContext } from "./sure-publish-context";
import { fillFamilySecurities, insertSecurities } from "./sure-trade-queries";

export interface ImportSecurities {
  /** The security of each ticker the file's trades and holdings name. */
  byTicker: Map<string, string>;
  /** Those the import made (no security of the ticker was the family's): only theirs take the file's prices. */
  made: Set<string>;
}

/**
 * find_or_create_security for the tickers of the file's trades, then its holdings (Sure imports
 * them in that order): the family's security of the ticker (Hearth keeps one per ticker and
 * family), its blank name and exchange filled from the file as Sure's apply_security_metadata
 * does, else a new offline one (no provider is reachable) carrying the import's id.
 */
export async function publishSecurities(context: SurePublishContext, named: readonly SureSecurityValues[]): Promise<ImportSecurities> {
  const { tx, familyId } = context;
  if (named.length === 0) return { byTicker: new Map(), made: new Set() };
  const firsts = new Map<string, SureSecurityValues>();
  for (const security of named) if (!firsts.has(security.ticker)) firsts.set(security.ticker, security);
  const existing = await fillFamilySecurities(tx, familyId, [...firsts.values()]);
  const byTicker = new Map(existing.map((row) => [row.ticker, row.id]));
  const missing = [...firsts.values()].filter((security) => !byTicker.has(security.ticker)).map((security) => ({ ...security, id: context.newId() }));
  for (const security of missing) byTicker.set(security.ticker, security.id);
  if (missing.length > 0) await insertSecurities(tx, familyId, context.importId, missing);
  return { byTicker, made: new Set(missing.map((security) => security.id)) };
}
