import type { FamilyPurgeScope } from "@hearth/contracts";
import { Prisma } from "../generated/prisma/client";
import { batchTransactionOptions, limitBatch, type BatchTimeouts } from "@hearth/service-kit";
import type { FinanceDb } from "../db";
import { todayIso } from "../ledger/dates";
import { lockDailySyncs } from "../syncs/sync-queue-queries";

/**
 * The family's rows in the order they can go (children before what they reference). Each is
 * deleted in batches of primary keys, so no statement holds locks on a million rows at once;
 * rows without a family column (rule conditions and actions, entry tags, export slices) and trades
 * and budget lines go by cascade. The family's jobs go last: until then each record left keeps
 * its job (a sync is never left waiting without one when a purge stops midway), and a job whose
 * record went finds nothing to do.
 */
const FINANCIAL_TABLES = [
  "provider_syncs",
  "provider_accounts",
  "provider_connections",
  "family_exports",
  "imports",
  "import_sessions",
  "rule_runs",
  "rules",
  "recurring_transactions",
  "budgets",
  "holding_spans",
  "balances",
  "transfers",
  "rejected_transfers",
  "entries",
  "security_prices",
  "securities",
  "accounts",
  "categories",
  "merchants",
  "tags",
  "exchange_rates",
  // After the accounts: the daily sync queues a family's sync while it has accounts, so one
  // queued beside this pass, before they went, is still deleted here.
  "syncs",
  "jobs",
  "job_family_turns",
] as const;

/** What a deleted family leaves beyond its financial data. */
const FAMILY_TABLES = ["family_settings", "category_defaults_seeded", "ledger_versions"] as const;

/** Tables keyed by the family alone (one row each): deleted whole. */
const KEYED_BY_FAMILY: ReadonlySet<string> = new Set(["job_family_turns", ...FAMILY_TABLES]);

export function tablesPurgedBy(scope: FamilyPurgeScope): readonly string[] {
  return scope === "everything" ? [...FINANCIAL_TABLES, ...FAMILY_TABLES] : FINANCIAL_TABLES;
}

/** Finance's part of a family purge and of the reset status. */
export function createFamilyDataRepository(db: FinanceDb) {
  return {
    /**
     * Deletes up to `limit` of the family's rows of `table`; answers how many went. A batch waits
     * at most `timeouts.lockMs` for a lock (a sync or an export holding the family's rows) and runs
     * at most `timeouts.statementMs`: past either it fails (55P03, 57014) and the step ends early,
     * instead of a statement left waiting in the database after the purger's call gave up.
     */
    async deleteBatch(table: string, familyId: string, limit: number, timeouts: BatchTimeouts): Promise<number> {
      const name = Prisma.raw(`"${table}"`);
      return db.$transaction(async (tx) => {
        await limitBatch(tx, timeouts);
        // A daily sync run reads the accounts, then queues syncs until it commits: one under way
        // queued the family's sync before its accounts went. Waiting for it (within the lock
        // timeout) lets this pass see and delete that sync; a run after it finds no accounts.
        if (table === "syncs") await lockDailySyncs(tx);
        if (KEYED_BY_FAMILY.has(table)) return tx.$executeRaw`DELETE FROM ${name} WHERE family_id = ${familyId}::uuid`;
        // The batch's ids as an array, not `id IN (subquery)`: with a family that is most of the
        // table the planner hashed that subquery and scanned the whole table for each batch (1.05 s
        // a batch of 10,000 entries, 0.26 s now; the rest is the cascades' foreign-key triggers).
        return tx.$executeRaw`
          DELETE FROM ${name} WHERE id = ANY(ARRAY(SELECT id FROM ${name} WHERE family_id = ${familyId}::uuid LIMIT ${limit}))`;
      }, batchTransactionOptions(timeouts));
    },

    /** Sure's reset counts (those finance has a meaning for) and finance's own kinds of rows. */
    async counts(familyId: string): Promise<Record<string, number>> {
      // Holdings are days of position spans, up to today as the holdings list shows them.
      const today = todayIso();
      const [row] = await db.$queryRaw<Record<string, bigint>[]>`
        WITH fam AS (SELECT ${familyId}::uuid AS id)
        SELECT
          (SELECT count(*) FROM family_exports, fam WHERE family_id = fam.id) AS family_exports,
          (SELECT count(*) FROM imports, fam WHERE family_id = fam.id) AS imports,
          (SELECT count(*) FROM import_sessions, fam WHERE family_id = fam.id) AS import_sessions,
          (SELECT count(*) FROM import_rows r JOIN imports i ON i.id = r.import_id, fam WHERE i.family_id = fam.id) AS import_rows,
          (SELECT count(*) FROM provider_connections, fam WHERE family_id = fam.id) AS provider_items,
          (SELECT count(*) FROM provider_accounts, fam WHERE family_id = fam.id AND account_id IS NOT NULL) AS account_providers,
          (SELECT count(*) FROM accounts, fam WHERE family_id = fam.id) AS accounts,
          (SELECT count(*) FROM entries, fam WHERE family_id = fam.id) AS entries,
          (SELECT count(*) FROM entries, fam WHERE family_id = fam.id AND kind = 'transaction') AS transactions,
          (SELECT count(*) FROM entries, fam WHERE family_id = fam.id AND kind = 'valuation') AS valuations,
          (SELECT count(*) FROM trades, fam WHERE family_id = fam.id) AS trades,
          (SELECT count(*) FROM transfers, fam WHERE family_id = fam.id) AS transfers,
          (SELECT count(*) FROM rejected_transfers, fam WHERE family_id = fam.id) AS rejected_transfers,
          (SELECT coalesce(sum(LEAST(coalesce(end_date, ${today}::date), ${today}::date) - start_date + 1) FILTER (WHERE start_date <= ${today}::date), 0)::bigint
             FROM holding_spans, fam WHERE family_id = fam.id) AS holdings,
          (SELECT count(*) FROM balances, fam WHERE family_id = fam.id) AS balances,
          (SELECT count(*) FROM recurring_transactions, fam WHERE family_id = fam.id) AS recurring_transactions,
          (SELECT count(*) FROM rules, fam WHERE family_id = fam.id) AS rules,
          (SELECT count(*) FROM rule_actions a JOIN rules r ON r.id = a.rule_id, fam WHERE r.family_id = fam.id) AS rule_actions,
          (SELECT count(*) FROM rule_conditions c JOIN rules r ON r.id = c.rule_id, fam WHERE r.family_id = fam.id) AS rule_top_conditions,
          (SELECT count(*) FROM rule_conditions c JOIN rule_conditions p ON p.id = c.parent_id JOIN rules r ON r.id = p.rule_id, fam
            WHERE r.family_id = fam.id) AS rule_sub_conditions,
          (SELECT count(*) FROM rule_runs, fam WHERE family_id = fam.id) AS rule_runs,
          (SELECT count(*) FROM budgets, fam WHERE family_id = fam.id) AS budgets,
          (SELECT count(*) FROM budget_categories, fam WHERE family_id = fam.id) AS budget_categories,
          (SELECT count(*) FROM categories, fam WHERE family_id = fam.id) AS categories,
          (SELECT count(*) FROM tags, fam WHERE family_id = fam.id) AS tags,
          (SELECT count(*) FROM entry_tags et JOIN tags t ON t.id = et.tag_id, fam WHERE t.family_id = fam.id) AS taggings,
          (SELECT count(*) FROM merchants, fam WHERE family_id = fam.id) AS merchants,
          (SELECT count(*) FROM securities, fam WHERE family_id = fam.id) AS securities,
          (SELECT count(*) FROM security_prices, fam WHERE family_id = fam.id) AS security_prices,
          (SELECT count(*) FROM exchange_rates, fam WHERE family_id = fam.id) AS exchange_rates`;
      const counts = Object.fromEntries(Object.entries(row ?? {}).map(([key, count]) => [key, Number(count)]));
      const { rule_top_conditions: top = 0, rule_sub_conditions: sub = 0, ...rest } = counts;
      return { ...rest, rule_conditions: top + sub };
    },
  };
}
export type FamilyDataRepository = ReturnType<typeof createFamilyDataRepository>;
