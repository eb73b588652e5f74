import { AppError, pageWindow, type BodyOf, type QueryOf } from "@hearth/contracts";
import type { FinanceDb, FinanceTx } from "../db";
import type { Prisma } from "../generated/prisma/client";
import { dateOf, dateRange, isoDateOf, todayIso } from "../ledger/dates";
import { requestAccountSync } from "../syncs/sync-queue-queries";
import { CARRY_FORWARD_MAX_DAYS, importPrices, parsePriceText, type IncomingPrice } from "./price-importer";
import { resolveSecurity, tickerOf } from "./security-resolver";

const PRICE_INCLUDE = { security: { select: { id: true, ticker: true, name: true, exchangeOperatingMic: true } } } as const;
export type SecurityPriceRow = Prisma.SecurityPriceGetPayload<{ include: typeof PRICE_INCLUDE }>;

/** One price a client records (the body's single object or an item of its list). */
export type NewSecurityPrice = NonNullable<BodyOf<"securityPrices.record">["security_prices"]>[number];

/** The most securities one request may price: each costs a lock and a carry-forward pass in one transaction. */
export const MAX_SECURITIES_PER_REQUEST = 100;

/** How an item names its security, as one key: the same id or the same ticker (any case) is the same security. */
function nameKey(item: NewSecurityPrice): string {
  return item.security_id !== undefined ? `id:${item.security_id}` : `ticker:${tickerOf(item.ticker ?? "").ticker}`;
}

/** Provisional rows one request may make carrying its prices forward (a series dated ten years back makes 3,660). */
export const MAX_CARRIED_ROWS_PER_REQUEST = 100_000;

/** An upper bound of the provisional rows a request makes: per security and currency, the days from its earliest price to today, capped as the importer caps them. */
function carriedRowsAtMost(items: readonly NewSecurityPrice[], today: string): number {
  const earliest = new Map<string, string>();
  for (const item of items) {
    const key = `${nameKey(item)}|${item.currency ?? ""}`;
    const known = earliest.get(key);
    if (known === undefined || item.date < known) earliest.set(key, item.date);
  }
  let rows = 0;
  for (const date of earliest.values()) rows += Math.min(CARRY_FORWARD_MAX_DAYS, Math.max(0, (Date.parse(today) - Date.parse(date)) / 86_400_000));
  return rows;
}

/** Every price checked before anything is written: all messages at once, each once. */
function checkedPrices(items: readonly NewSecurityPrice[], today: string): string[] {
  const errors = new Set<string>();
  const prices = items.map((item) => {
    const parsed = parsePriceText(item.price);
    if ("error" in parsed) errors.add(parsed.error);
    return "price" in parsed ? parsed.price : "";
  });
  if (new Set(items.map(nameKey)).size > MAX_SECURITIES_PER_REQUEST) errors.add(`At most ${MAX_SECURITIES_PER_REQUEST} securities per request`);
  if (carriedRowsAtMost(items, today) > MAX_CARRIED_ROWS_PER_REQUEST) {
    errors.add(
      `One request may carry prices forward over at most ${MAX_CARRIED_ROWS_PER_REQUEST.toLocaleString("en")} days in all (securities x currencies x days): send older prices in smaller requests`,
    );
  }
  if (errors.size > 0) throw AppError.validation([...errors]);
  return prices;
}

/** The currency of the security's latest real price (latest day, then latest written), else the family's. */
async function defaultCurrencyOf(tx: FinanceTx, securityId: string, familyCurrency: string): Promise<string> {
  const latest = await tx.securityPrice.findFirst({
    where: { securityId, provisional: false },
    orderBy: [{ date: "desc" }, { updatedAt: "desc" }],
    select: { currency: true },
  });
  return latest?.currency ?? familyCurrency;
}

/**
 * Queues a sync of every account of the family that trades a security whose prices changed, from
 * the earliest day that changed among the securities it trades.
 */
async function resyncHolders(tx: FinanceTx, familyId: string, changedFrom: Map<string, string>): Promise<void> {
  if (changedFrom.size === 0) return;
  const holders = await tx.$queryRaw<{ account_id: string; security_id: string }[]>`
    SELECT DISTINCT e.account_id, t.security_id
      FROM trades t JOIN entries e ON e.id = t.entry_id JOIN accounts a ON a.id = e.account_id
     WHERE t.family_id = ${familyId}::uuid AND a.family_id = ${familyId}::uuid AND a.status <> 'pending_deletion'
       AND t.security_id = ANY(${[...changedFrom.keys()]}::uuid[])`;
  const fromByAccount = new Map<string, string>();
  for (const { account_id, security_id } of holders) {
    const from = changedFrom.get(security_id)!;
    const current = fromByAccount.get(account_id);
    if (current === undefined || from < current) fromByAccount.set(account_id, from);
  }
  // Sorted: two requests queueing the same accounts take their sync rows in one order.
  for (const accountId of [...fromByAccount.keys()].sort()) await requestAccountSync(tx, familyId, accountId, fromByAccount.get(accountId)!);
}

export function createSecurityPriceRepository(db: FinanceDb) {
  return {
    /** Prices of the family's securities (every row carries the family), newest first. */
    async list(familyId: string, query: QueryOf<"securityPrices.list">) {
      const where: Prisma.SecurityPriceWhereInput = {
        familyId,
        ...(query.security_id ? { securityId: query.security_id } : {}),
        ...(query.currency ? { currency: query.currency } : {}),
        ...(query.provisional !== undefined ? { provisional: query.provisional } : {}),
        ...dateRange(query.start_date, query.end_date),
      };
      const [rows, total] = await db.$transaction([
        db.securityPrice.findMany({ where, include: PRICE_INCLUDE, orderBy: [{ date: "desc" }, { id: "desc" }], ...pageWindow(query) }),
        db.securityPrice.count({ where }),
      ]);
      return { rows, total };
    },

    async get(familyId: string, id: string): Promise<SecurityPriceRow> {
      const row = await db.securityPrice.findFirst({ where: { id, familyId }, include: PRICE_INCLUDE });
      if (!row) throw AppError.notFound("Security price");
      return row;
    },

    /**
     * Records real prices in one transaction: upserted per security, day and currency, days after
     * them carried forward (price-importer.ts), and the accounts trading those securities resynced
     * from the earliest day that changed. A ticker the family has not seen becomes an offline
     * security. Answers the recorded rows, one per security, day and currency, in request order.
     */
    async record(familyId: string, items: readonly NewSecurityPrice[], familyCurrency: string | undefined): Promise<SecurityPriceRow[]> {
      const today = todayIso();
      const prices = checkedPrices(items, today);
      const ids = await db.$transaction(
        async (tx) => {
          // Resolved in key order: two requests creating the same new tickers insert them in one order.
          const named = new Map(items.map((item) => [nameKey(item), item]));
          const securities = new Map<string, string>();
          for (const key of [...named.keys()].sort()) securities.set(key, (await resolveSecurity(tx, familyId, named.get(key)!)).id);
          const bySecurity = new Map<string, IncomingPrice[]>();
          const defaults = new Map<string, string>();
          const recorded: { securityId: string; date: string; currency: string }[] = [];
          for (const [index, item] of items.entries()) {
            const securityId = securities.get(nameKey(item))!;
            let currency = item.currency;
            if (currency === undefined) {
              if (familyCurrency === undefined) throw new Error("a price without a currency needs the family's currency");
              if (!defaults.has(securityId)) defaults.set(securityId, await defaultCurrencyOf(tx, securityId, familyCurrency));
              currency = defaults.get(securityId)!;
            }
            const forSecurity = bySecurity.get(securityId) ?? [];
            forSecurity.push({ date: item.date, price: prices[index]!, currency });
            bySecurity.set(securityId, forSecurity);
            recorded.push({ securityId, date: item.date, currency });
          }
          const changedFrom = new Map<string, string>();
          // In id order: two requests pricing the same securities lock them in one order.
          for (const securityId of [...bySecurity.keys()].sort()) {
            const earliest = await importPrices(tx, familyId, securityId, bySecurity.get(securityId)!, today);
            if (earliest !== null) changedFrom.set(securityId, earliest);
          }
          await resyncHolders(tx, familyId, changedFrom);
          return recordedIds(tx, recorded);
        },
        { timeout: 60_000, maxWait: 30_000 },
      );
      const rows = await db.securityPrice.findMany({ where: { id: { in: ids }, familyId }, include: PRICE_INCLUDE });
      const byId = new Map(rows.map((row) => [row.id, row]));
      return ids.flatMap((id) => byId.get(id) ?? []);
    },
  };
}
export type SecurityPriceRepository = ReturnType<typeof createSecurityPriceRepository>;

/** The ids of the rows the request's prices landed in, in request order, each once. */
async function recordedIds(tx: FinanceTx, recorded: readonly { securityId: string; date: string; currency: string }[]): Promise<string[]> {
  const rows = await tx.$queryRaw<{ id: string; security_id: string; date: Date; currency: string }[]>`
    SELECT p.id, p.security_id, p.date, p.currency FROM security_prices p
      JOIN unnest(${recorded.map((price) => price.securityId)}::uuid[], ${recorded.map((price) => dateOf(price.date))}::date[],
                  ${recorded.map((price) => price.currency)}::text[]) AS k(security_id, date, currency)
        ON p.security_id = k.security_id AND p.date = k.date AND p.currency = k.currency`;
  const idOf = new Map(rows.map((row) => [`${row.security_id}|${isoDateOf(row.date)}|${row.currency}`, row.id]));
  const ids = recorded.flatMap((price) => idOf.get(`${price.securityId}|${price.date}|${price.currency}`) ?? []);
  return [...new Set(ids)];
}
