import { AppError, decimalOf, minorUnitDigits, pageWindow, type BodyOf, type QueryOf } from "@hearth/contracts";
import type { FinanceDb, FinanceTx } from "../db";
import type { Prisma } from "../generated/prisma/client";
import { findAccount } from "../accounts/account-repository";
import { QTY_SCALE, fromScaled, toScaled } from "../holdings/fixed-point";
import { isComplete } from "../ledger/complete-rows";
import { dateOf, dateRange, isoDateOf, todayIso } from "../ledger/dates";
import { centsIn } from "../ledger/money";
import { cashSecurityOf, resolveSecurity } from "../securities/security-resolver";
import { requestAccountSync } from "../syncs/sync-queue-queries";
import { withLocks } from "../rules/attribute-locks";
import { tradeAmountCents, tradeName } from "./trade-amounts";

const TRADE_INCLUDE = {
  account: { select: { id: true, name: true, accountType: true, status: true } },
  category: { select: { id: true, name: true } },
  trade: { include: { security: { select: { id: true, ticker: true, name: true, kind: true } } } },
} as const satisfies Prisma.EntryInclude;
export type TradeRow = Prisma.EntryGetPayload<{ include: typeof TRADE_INCLUDE }>;

export type NewTrade = BodyOf<"trades.create">["trade"];
export type TradeChanges = BodyOf<"trades.update">["trade"];
/** The trade-kind creations: deposits and withdrawals are transactions or transfers (see trade-handlers.ts). */
export type NewInvestmentTrade = NewTrade & { type: "buy" | "sell" | "dividend" | "interest" };

/** Only investment and crypto accounts take trades (Sure's Account#supports_trades?). */
export function assertTakesTrades(account: { accountType: string }): void {
  if (account.accountType !== "investment" && account.accountType !== "crypto") {
    throw new AppError("validation_failed", {
      message: "Account does not support trades (investment or crypto exchange only)",
      errors: ["Account must be an investment or crypto exchange account"],
    });
  }
}

/**
 * Holding days one account may have (securities x days from each one's first trade to today):
 * 250,000 is 68 securities held for ten years. Holdings are stored as spans, but a full sync
 * still values every one of these days in memory (the calculator) in one transaction of the
 * shared worker (181,539 days: about 0.5 s over stored spans, 0.75 s from scratch, on two cores).
 */
export const MAX_HOLDING_ROWS = 250_000;

/**
 * Refuses a write that would give the account more daily holdings than MAX_HOLDING_ROWS: every
 * sync of the account writes and compares them, in one transaction of the shared worker.
 */
async function assertHoldingsWithinLimit(tx: FinanceTx, accountId: string, limit: number): Promise<void> {
  const [row] = await tx.$queryRaw<{ rows: bigint | null }[]>`
    SELECT sum(GREATEST(${dateOf(todayIso())}::date - first_date + 1, 0))::bigint AS rows
      FROM (SELECT min(e.date) AS first_date FROM entries e JOIN trades t ON t.entry_id = e.id
             WHERE e.account_id = ${accountId}::uuid AND t.qty <> 0 GROUP BY t.security_id) AS firsts`;
  if ((row?.rows ?? 0n) > BigInt(limit)) {
    throw AppError.validation([
      `An account holds at most ${limit.toLocaleString("en")} daily holdings (securities x days since each one's first trade): fewer securities or a later date`,
    ]);
  }
}

async function checkCategory(tx: FinanceTx, familyId: string, categoryId: string | null | undefined): Promise<void> {
  if (!categoryId) return;
  if (!(await tx.category.findFirst({ where: { id: categoryId, familyId }, select: { id: true } }))) {
    throw new AppError("validation_failed", { message: "Category not found or does not belong to your family", errors: ["category_id is invalid"] });
  }
}

/** The trade's entry and its investment side, as the calculator and the answer need them. */
function tradeFieldsOf(input: NewInvestmentTrade, currency: string, ticker: string, cash: boolean) {
  if (input.type === "buy" || input.type === "sell") {
    const size = toScaled(input.qty!, QTY_SCALE);
    const signedQty = input.type === "sell" ? -size : size;
    const fee = input.fee ?? "0";
    return {
      name: tradeName(input.type, signedQty, ticker),
      amountCents: tradeAmountCents(signedQty, input.price!, fee, currency),
      qty: fromScaled(signedQty, QTY_SCALE),
      price: input.price!,
      feeCents: centsIn(fee, currency, "Fee"),
      label: input.type === "sell" ? "Sell" : "Buy",
    };
  }
  // Dividends and interest are cash coming in: quantity and price 0 (Sure's create_income_trade).
  const name = input.type === "dividend" ? `Dividend: ${ticker}` : cash ? "Interest" : `Interest: ${ticker}`;
  return {
    name,
    amountCents: -centsIn(input.amount!, currency),
    qty: "0",
    price: "0",
    feeCents: 0n,
    label: input.type === "dividend" ? "Dividend" : "Interest",
  };
}

export function createTradeRepository(db: FinanceDb, options: { maxHoldingRows?: number } = {}) {
  const maxHoldingRows = options.maxHoldingRows ?? MAX_HOLDING_ROWS;
  async function find(tx: FinanceTx | FinanceDb, familyId: string, id: string): Promise<TradeRow> {
    const row = await tx.entry.findFirst({
      where: { id, familyId, kind: "trade", account: { status: { not: "pending_deletion" } } },
      include: TRADE_INCLUDE,
    });
    if (!row || !isComplete(row.account, row.trade)) throw AppError.notFound("Trade");
    return row;
  }

  /**
   * The trade, read again under its account's lock (taken first, as every ledger write takes
   * it): a concurrent edit or delete of the same trade waits, then sees what the other did.
   */
  async function lockedTrade(tx: FinanceTx, familyId: string, id: string): Promise<TradeRow> {
    const { accountId } = await find(tx, familyId, id);
    await tx.$queryRaw`SELECT id FROM accounts WHERE id = ${accountId}::uuid FOR UPDATE`;
    return find(tx, familyId, id);
  }

  return {
    /** Newest first (date, then creation), as Sure's reverse_chronological. */
    async list(familyId: string, query: QueryOf<"trades.list">) {
      // Both account filters apply when both are given, as Sure chains them.
      const accountFilters: Prisma.EntryWhereInput[] = [];
      if (query.account_id) accountFilters.push({ accountId: query.account_id });
      if (query.account_ids) accountFilters.push({ accountId: { in: query.account_ids } });
      const where: Prisma.EntryWhereInput = {
        familyId,
        kind: "trade",
        account: { status: { not: "pending_deletion" } },
        AND: accountFilters,
        ...dateRange(query.start_date, query.end_date),
      };
      const [rows, total] = await db.$transaction([
        db.entry.findMany({ where, include: TRADE_INCLUDE, orderBy: [{ date: "desc" }, { createdAt: "desc" }, { id: "desc" }], ...pageWindow(query) }),
        db.entry.count({ where }),
      ]);
      return { rows: rows.filter((row) => isComplete(row.account, row.trade)), total };
    },

    get(familyId: string, id: string) {
      return find(db, familyId, id);
    },

    /** The account a trade of any type goes to: the family's, and one that takes trades. */
    async tradingAccount(familyId: string, accountId: string) {
      const account = await findAccount(db, familyId, accountId);
      assertTakesTrades(account);
      return account;
    },

    /** A buy, sell, dividend or interest: the entry and its trade in one transaction, then a sync of the account from its date. */
    async create(familyId: string, input: NewInvestmentTrade): Promise<TradeRow> {
      return db.$transaction(async (tx) => {
        const account = await findAccount(tx, familyId, input.account_id);
        assertTakesTrades(account);
        await checkCategory(tx, familyId, input.category_id);
        const security =
          input.type === "interest" && input.security_id === undefined && input.ticker === undefined && input.manual_ticker === undefined
            ? await cashSecurityOf(tx, familyId, account)
            : await resolveSecurity(tx, familyId, input);
        const currency = input.currency ?? account.currency;
        const fields = tradeFieldsOf(input, currency, security.ticker, security.kind === "cash");
        const entry = await tx.entry.create({
          data: {
            familyId,
            accountId: account.id,
            kind: "trade",
            date: dateOf(input.date),
            name: fields.name,
            amountCents: fields.amountCents,
            currency,
            categoryId: input.category_id ?? null,
            trade: {
              create: {
                familyId,
                securityId: security.id,
                qty: fields.qty,
                price: fields.price,
                feeCents: fields.feeCents,
                currency,
                investmentActivityLabel: input.investment_activity_label ?? fields.label,
              },
            },
          },
        });
        if (fields.qty !== "0") await assertHoldingsWithinLimit(tx, account.id, maxHoldingRows);
        await requestAccountSync(tx, familyId, account.id, input.date);
        return find(tx, familyId, entry.id);
      });
    },

    /**
     * The spec's rule 1. A new qty or price recomputes the amount (signed qty x price + the
     * trade's fee) and the name, as Sure's update does (Sure leaves the fee out and keeps the old
     * price on the trade; here the amount keeps its fee and the trade its new price). Whether the
     * new quantity is a sell: `type`/`nature` when given (sell, inflow), else the trade's own sign.
     */
    async update(familyId: string, id: string, changes: TradeChanges): Promise<TradeRow> {
      return db.$transaction(async (tx) => {
        // Two edits of one trade at once: the second reads it again after the first committed.
        const current = await lockedTrade(tx, familyId, id);
        const trade = current.trade!;
        await checkCategory(tx, familyId, changes.category_id);
        const currency = changes.currency ?? current.currency;
        const currentQty = toScaled(trade.qty.toFixed(), QTY_SCALE);
        const movesQty = changes.qty !== undefined || changes.price !== undefined;
        if (movesQty && currentQty === 0n) throw AppError.validation(["qty and price apply to buys and sells only"]);
        const entryData: Prisma.EntryUpdateInput = {
          ...(changes.date !== undefined ? { date: dateOf(changes.date) } : {}),
          ...(changes.name !== undefined ? { name: changes.name } : {}),
          ...(changes.notes !== undefined ? { notes: changes.notes } : {}),
          ...(changes.category_id !== undefined ? { category: changes.category_id ? { connect: { id: changes.category_id } } : { disconnect: true } } : {}),
          // A label or category set by hand is locked against rules (Sure's lock_saved_attributes!).
          ...(changes.investment_activity_label !== undefined || changes.category_id !== undefined
            ? {
                lockedAttributes: withLocks(current.lockedAttributes, [
                  ...(changes.investment_activity_label !== undefined ? ["investment_activity_label"] : []),
                  ...(changes.category_id !== undefined ? ["category_id"] : []),
                ]),
              }
            : {}),
        };
        const tradeData: Prisma.TradeUpdateInput = {
          ...(changes.investment_activity_label !== undefined ? { investmentActivityLabel: changes.investment_activity_label } : {}),
        };
        if (changes.currency !== undefined && changes.currency !== current.currency) {
          // The same decimal amount in the new currency; more decimals than it has is a 422.
          entryData.amountCents = centsIn(decimalOf(current.amountCents, minorUnitDigits(current.currency)), currency);
          entryData.currency = currency;
          tradeData.currency = currency;
          tradeData.feeCents = centsIn(decimalOf(trade.feeCents, minorUnitDigits(current.currency)), currency, "Fee");
        }
        if (movesQty) {
          const sell = changes.type !== undefined || changes.nature !== undefined ? changes.type === "sell" || changes.nature === "inflow" : currentQty < 0n;
          const size = changes.qty !== undefined ? toScaled(changes.qty, QTY_SCALE) : currentQty < 0n ? -currentQty : currentQty;
          const signedQty = sell ? -size : size;
          const price = changes.price ?? trade.price.toFixed();
          const fee = decimalOf((tradeData.feeCents as bigint | undefined) ?? trade.feeCents, minorUnitDigits(currency));
          entryData.amountCents = tradeAmountCents(signedQty, price, fee, currency);
          if (changes.name === undefined) entryData.name = tradeName(sell ? "sell" : "buy", signedQty, current.trade!.security.ticker);
          tradeData.qty = fromScaled(signedQty, QTY_SCALE);
          tradeData.price = price;
          if (changes.investment_activity_label === undefined && !trade.investmentActivityLabel) tradeData.investmentActivityLabel = sell ? "Sell" : "Buy";
        }
        await tx.entry.update({ where: { id }, data: { ...entryData, trade: { update: tradeData } } });
        if (changes.date !== undefined && currentQty !== 0n) await assertHoldingsWithinLimit(tx, current.accountId, maxHoldingRows);
        const oldDate = isoDateOf(current.date);
        await requestAccountSync(tx, familyId, current.accountId, changes.date !== undefined && changes.date < oldDate ? changes.date : oldDate);
        return find(tx, familyId, id);
      });
    },

    async delete(familyId: string, id: string): Promise<void> {
      await db.$transaction(async (tx) => {
        const current = await lockedTrade(tx, familyId, id);
        await tx.entry.delete({ where: { id } });
        await requestAccountSync(tx, familyId, current.accountId, isoDateOf(current.date));
      });
    },
  };
}
export type TradeRepository = ReturnType<typeof createTradeRepository>;
