import { Prisma } from "../generated/prisma/client";
import { accountBatches } from "./accounts-csv";
import { afterDateAndId, exportedAccount, keysetBatches, type ExportScope } from "./export-scope";
import type { RecordSection } from "./sure-record";
import { ACCOUNTABLE_TYPES, amountText, jsonTime } from "./sure-values";

/**
 * Account records: Sure's account.as_json(include: accountable) for the columns Hearth has, in
 * Sure's column order; the accountable carries the subtype (what Sure's importer reads of it).
 */
export async function* accountRecords(scope: ExportScope): RecordSection {
  for await (const rows of accountBatches(scope, "all.ndjson:Account")) {
    yield rows.map((a) => ({
      type: "Account",
      data: {
        id: a.id,
        subtype: a.subtype,
        family_id: scope.familyId,
        name: a.name,
        created_at: jsonTime(a.created_at),
        updated_at: jsonTime(a.updated_at),
        accountable_type: ACCOUNTABLE_TYPES[a.account_type],
        balance: amountText(a.balance_cents, a.currency),
        currency: a.currency,
        classification: a.classification,
        cash_balance: amountText(a.cash_balance_cents, a.currency),
        status: a.status,
        institution_name: a.institution_name,
        institution_domain: a.institution_domain,
        accountable: { subtype: a.subtype },
      },
    }));
  }
}

interface BalanceRow {
  id: string;
  account_id: string;
  date: string;
  currency: string;
  flows_factor: number;
  start_cash: bigint;
  start_non_cash: bigint;
  cash_inflows: bigint;
  cash_outflows: bigint;
  non_cash_inflows: bigint;
  non_cash_outflows: bigint;
  net_market_flows: bigint;
  cash_adjustments: bigint;
  non_cash_adjustments: bigint;
  end_cash: bigint;
  end_non_cash: bigint;
  created_at: Date;
  updated_at: Date;
}

/**
 * Balance records, chronologically as Sure writes them (keyset on date and id, the (family, date)
 * index). Sure's balance is the day's end balance and its cash_balance the end cash balance.
 */
export async function* balanceRecords(scope: ExportScope): RecordSection {
  const batches = keysetBatches<BalanceRow>(
    scope,
    "all.ndjson:Balance",
    (after, limit) => Prisma.sql`
      SELECT b.id::text AS id, b.account_id::text AS account_id, b.date::text AS date, b.currency, b.flows_factor,
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
       LIMIT ${limit}`,
  );
  for await (const rows of batches) {
    yield rows.map((b) => {
      const money = (cents: bigint) => amountText(cents, b.currency);
      return {
        type: "Balance",
        data: {
          id: b.id,
          account_id: b.account_id,
          date: b.date,
          balance: money(b.end_cash + b.end_non_cash),
          currency: b.currency,
          cash_balance: money(b.end_cash),
          start_cash_balance: money(b.start_cash),
          start_non_cash_balance: money(b.start_non_cash),
          cash_inflows: money(b.cash_inflows),
          cash_outflows: money(b.cash_outflows),
          non_cash_inflows: money(b.non_cash_inflows),
          non_cash_outflows: money(b.non_cash_outflows),
          net_market_flows: money(b.net_market_flows),
          cash_adjustments: money(b.cash_adjustments),
          non_cash_adjustments: money(b.non_cash_adjustments),
          flows_factor: b.flows_factor,
          start_balance: money(b.start_cash + b.start_non_cash),
          end_cash_balance: money(b.end_cash),
          end_non_cash_balance: money(b.end_non_cash),
          end_balance: money(b.end_cash + b.end_non_cash),
          created_at: jsonTime(b.created_at),
          updated_at: jsonTime(b.updated_at),
        },
      };
    });
  }
}
