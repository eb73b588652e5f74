import { Prisma } from "../generated/prisma/client";
import { accountRows } from "./accounts-csv";
import { afterDateAndId, exportedAccount, type ExportScope } from "./export-scope";
import { accountableTypeSql, amountSql, jsonTimeSql, objectSql } from "./sql-format";
import { recordSection } from "./sure-record";

/**
 * Account records: Sure's account.as_json(include: accountable) for the columns Hearth has, in
 * Sure's column order; the accountable carries the subtype (what Sure's importer reads of it).
 */
export const accountRecords = recordSection(
  "Account",
  1,
  accountRows,
  Prisma.sql`r.id, r.subtype, r.family_id, r.name, ${jsonTimeSql(Prisma.sql`r.created_at`)} AS created_at, ${jsonTimeSql(Prisma.sql`r.updated_at`)} AS updated_at,
    ${accountableTypeSql(Prisma.sql`r.account_type`)} AS accountable_type, ${amountSql(Prisma.sql`r.balance_cents`, Prisma.sql`r.currency`)} AS balance,
    r.currency, r.classification, ${amountSql(Prisma.sql`r.cash_balance_cents`, Prisma.sql`r.currency`)} AS cash_balance, r.status,
    r.institution_name, r.institution_domain, ${objectSql(Prisma.sql`r.subtype AS subtype`)} AS accountable`,
);

const balanceRows = (scope: ExportScope, after: string[] | null, limit: number) => Prisma.sql`
  SELECT b.date::text AS k0, b.id::text AS k1, b.id::text AS id, b.account_id::text AS account_id, b.currency, b.flows_factor,
         b.start_cash_balance_cents AS start_cash, b.start_non_cash_balance_cents AS start_non_cash,
         b.cash_inflows_cents AS cash_inflows, b.cash_outflows_cents AS cash_outflows,
         b.non_cash_inflows_cents AS non_cash_inflows, b.non_cash_outflows_cents AS non_cash_outflows,
         b.net_market_flows_cents AS net_market_flows, b.cash_adjustments_cents AS cash_adjustments,
         b.non_cash_adjustments_cents AS non_cash_adjustments,
         b.end_cash_balance_cents AS end_cash, b.end_non_cash_balance_cents AS end_non_cash, b.created_at, b.updated_at
    FROM balances b
    JOIN accounts a ON a.id = b.account_id
   WHERE b.family_id = ${scope.familyId}::uuid AND ${exportedAccount("a", scope.familyId)} ${afterDateAndId("b", after)}
   ORDER BY b.date, b.id
   LIMIT ${limit}`;

const money = (cents: string) => amountSql(Prisma.raw(cents), Prisma.sql`r.currency`);

/**
 * Balance records, chronologically as Sure writes them (keyset on date and id, the (family, date)
 * index). Sure's balance is the day's end balance and its cash_balance the end cash balance.
 */
export const balanceRecords = recordSection(
  "Balance",
  2,
  balanceRows,
  Prisma.sql`r.id, r.account_id, r.k0 AS date, ${money("r.end_cash + r.end_non_cash")} AS balance, r.currency, ${money("r.end_cash")} AS cash_balance,
    ${money("r.start_cash")} AS start_cash_balance, ${money("r.start_non_cash")} AS start_non_cash_balance,
    ${money("r.cash_inflows")} AS cash_inflows, ${money("r.cash_outflows")} AS cash_outflows,
    ${money("r.non_cash_inflows")} AS non_cash_inflows, ${money("r.non_cash_outflows")} AS non_cash_outflows,
    ${money("r.net_market_flows")} AS net_market_flows, ${money("r.cash_adjustments")} AS cash_adjustments,
    ${money("r.non_cash_adjustments")} AS non_cash_adjustments, r.flows_factor,
    ${money("r.start_cash + r.start_non_cash")} AS start_balance, ${money("r.end_cash")} AS end_cash_balance,
    ${money("r.end_non_cash")} AS end_non_cash_balance, ${money("r.end_cash + r.end_non_cash")} AS end_balance,
    ${jsonTimeSql(Prisma.sql`r.created_at`)} AS created_at, ${jsonTimeSql(Prisma.sql`r.updated_at`)} AS updated_at`,
);
