import { ACCOUNT_TYPES, ACTIVITY_LABELS, RULE_ACTION_TYPES, UUID_TEXT, type AccountType, type RuleActionType } from "@hearth/contracts";
import type { FinanceTx } from "../db";
import { Prisma } from "../generated/prisma/client";
import { isoDateOf } from "../ledger/dates";
import { requestAccountSync } from "../syncs/sync-queue-queries";
import { familyCategoryNamed, INVESTMENT_CONTRIBUTIONS_CATEGORY } from "../transfers/transfer-category-queries";
import { matchedOutflowKindOf, transferNamePrefixOf } from "../transfers/transfer-kinds";
import { TRANSFER_KINDS } from "./condition-sql";
import { RuleDefinitionError } from "./rule-definition";
import { risingIds } from "./rising-id-sql";

// Each action is set-based SQL over the matched entries: one statement changes every entry it
// applies to (the transfer action a few, one per table). Never a loop over rows. An action's test
// of which entries it changes and its statements share their SQL, so both live here.

/** Where an action applies: the matched entries on `entries e`, and whether hand-set attributes give way. */
export interface ActionScope {
  familyId: string;
  match: Prisma.Sql;
  ignoreLocks: boolean;
}

interface ActionExecutor {
  /** The kind of entry it acts on: transactions, or trades for the activity label (kept on `trades`). */
  kind: "transaction" | "trade";
  /** Whether it would change entry `e` (already matched): what the run counts as modified and the preview shows. */
  changes(value: string | null, scope: ActionScope): Prisma.Sql;
  /** Applies it to the matched entries it changes; answers how many changed. */
  execute(tx: FinanceTx, value: string | null, scope: ActionScope): Promise<number>;
}

/** Sure's `enrichable(attr)`: rows whose attribute a person set by hand are left alone unless the run ignores locks. */
function unlocked(attribute: string, scope: ActionScope): Prisma.Sql {
  if (scope.ignoreLocks) return Prisma.sql`TRUE`;
  // locked_attributes may be NULL on rows written before the column had its default.
  return Prisma.sql`NOT (COALESCE(e.locked_attributes, '{}'::text[]) @> ARRAY[${attribute}]::text[])`;
}

/** An id value, or null: a record that cannot exist makes the action a no-op, as Sure's find_by_id returning nil. */
function idOf(value: string | null): string | null {
  return value !== null && UUID_TEXT.test(value.trim()) ? value.trim().toLowerCase() : null;
}

/** Sets one id column from one of the family's records (category, merchant); none when the record is gone. */
function referenceColumn(column: "category_id" | "merchant_id", table: "categories" | "merchants", lock: string): ActionExecutor {
  const columnSql = Prisma.raw(`e.${column}`);
  const tableSql = Prisma.raw(table);
  const changes = (value: string | null, scope: ActionScope) => {
    const id = idOf(value);
    if (id === null) return Prisma.sql`FALSE`;
    return Prisma.sql`(e.kind = 'transaction' AND ${unlocked(lock, scope)} AND ${columnSql} IS DISTINCT FROM ${id}::uuid
      AND EXISTS (SELECT 1 FROM ${tableSql} r WHERE r.id = ${id}::uuid AND r.family_id = ${scope.familyId}::uuid))`;
  };
  return {
    kind: "transaction",
    changes,
    async execute(tx, value, scope) {
      const id = idOf(value);
      if (id === null) return 0;
      return tx.$executeRaw`
        UPDATE entries e SET ${Prisma.raw(column)} = r.id, updated_at = now()
          FROM ${tableSql} r
         WHERE r.id = ${id}::uuid AND r.family_id = ${scope.familyId}::uuid
           AND ${scope.match} AND ${changes(value, scope)}`;
    },
  };
}

/** Sure's SetTransactionTags adds the tag (existing tags stay, none twice). */
/** The entries the tag may go on: transactions whose tags no person locked, when the tag is the family's. */
function taggable(id: string, scope: ActionScope): Prisma.Sql {
  return Prisma.sql`(e.kind = 'transaction' AND ${unlocked("tag_ids", scope)}
      AND EXISTS (SELECT 1 FROM tags t WHERE t.id = ${id}::uuid AND t.family_id = ${scope.familyId}::uuid))`;
}

const setTags: ActionExecutor = {
  kind: "transaction",
  changes(value, scope) {
    const id = idOf(value);
    if (id === null) return Prisma.sql`FALSE`;
    return Prisma.sql`(${taggable(id, scope)} AND NOT EXISTS (SELECT 1 FROM entry_tags et WHERE et.entry_id = e.id AND et.tag_id = ${id}::uuid))`;
  },
  async execute(tx, value, scope) {
    const id = idOf(value);
    if (id === null) return 0;
    // An entry that has the tag already is skipped by the primary key's ON CONFLICT alone: probing
    // for it first as well (the anti-join `changes` counts with) cost a tenth of the insert.
    return tx.$executeRaw`
      INSERT INTO entry_tags (entry_id, tag_id)
      SELECT e.id, ${id}::uuid FROM entries e WHERE ${scope.match} AND ${taggable(id, scope)}
      ON CONFLICT DO NOTHING`;
  },
};

/** Sure's SetTransactionName: a blank name does nothing. */
const setName: ActionExecutor = {
  kind: "transaction",
  changes(value, scope) {
    if (value === null || value.trim() === "") return Prisma.sql`FALSE`;
    return Prisma.sql`(e.kind = 'transaction' AND ${unlocked("name", scope)} AND e.name IS DISTINCT FROM ${value})`;
  },
  async execute(tx, value, scope) {
    if (value === null || value.trim() === "") return 0;
    return tx.$executeRaw`UPDATE entries e SET name = ${value}, updated_at = now() WHERE ${scope.match} AND ${setName.changes(value, scope)}`;
  },
};

const excludeTransaction: ActionExecutor = {
  kind: "transaction",
  changes: (_value, scope) => Prisma.sql`(e.kind = 'transaction' AND ${unlocked("excluded", scope)} AND NOT e.excluded)`,
  async execute(tx, value, scope) {
    return tx.$executeRaw`UPDATE entries e SET excluded = true, updated_at = now() WHERE ${scope.match} AND ${excludeTransaction.changes(value, scope)}`;
  },
};

/**
 * Sure's SetInvestmentActivityLabel. Hearth keeps the label on trades (cash activity such as
 * dividends and interest is a trade here), so it acts on the matched trades; an unknown label
 * does nothing, as in Sure.
 */
const setActivityLabel: ActionExecutor = {
  kind: "trade",
  changes(value, scope) {
    if (value === null || !(ACTIVITY_LABELS as readonly string[]).includes(value)) return Prisma.sql`FALSE`;
    return Prisma.sql`(e.kind = 'trade' AND ${unlocked("investment_activity_label", scope)}
      AND EXISTS (SELECT 1 FROM trades tr WHERE tr.entry_id = e.id AND tr.investment_activity_label IS DISTINCT FROM ${value}))`;
  },
  async execute(tx, value, scope) {
    if (value === null || !(ACTIVITY_LABELS as readonly string[]).includes(value)) return 0;
    return tx.$executeRaw`
      UPDATE trades t SET investment_activity_label = ${value}, updated_at = now()
        FROM entries e
       WHERE t.entry_id = e.id AND ${scope.match} AND ${setActivityLabel.changes(value, scope)}`;
  },
};

/** The account types of each outflow kind and name prefix, from the transfer rules (Sure's Transfer.kind_for_account). */
function typesBy<K extends string>(classify: (type: AccountType) => K): [K, string[]][] {
  const groups = new Map<K, string[]>();
  for (const type of ACCOUNT_TYPES) groups.set(classify(type), [...(groups.get(classify(type)) ?? []), type]);
  return [...groups];
}
const OUTFLOW_KINDS = typesBy(matchedOutflowKindOf);
const NAME_PREFIXES = typesBy(transferNamePrefixOf);
const INVESTMENT_TYPES = OUTFLOW_KINDS.find(([kind]) => kind === "investment_contribution")?.[1] ?? [];

function caseOfType(type: Prisma.Sql, groups: [string, string[]][]): Prisma.Sql {
  return Prisma.sql`(CASE ${Prisma.join(
    groups.map(([result, types]) => Prisma.sql`WHEN ${type} = ANY(${types}::text[]) THEN ${result}`),
    " ",
  )} END)`;
}

/** The account a transfer action names, when it is the family's and not being removed. */
async function targetAccountOf(tx: FinanceTx, familyId: string, value: string | null) {
  const id = idOf(value);
  if (id === null) return null;
  return tx.account.findFirst({ where: { id, familyId, status: { not: "pending_deletion" } }, select: { id: true, name: true, accountType: true } });
}

/**
 * Sure's SetAsTransferOrPayment: each matched transaction not already a transfer gets its other
 * side in the named account (the opposite amount, same day and currency) and becomes a confirmed
 * transfer with it. The outflow takes its kind from the destination (a payment to a liability,
 * a contribution to an investment account, filed under Investment Contributions when it has no
 * category), the inflow is a movement of funds.
 */
const setAsTransfer: ActionExecutor = {
  kind: "transaction",
  changes(value, scope) {
    const id = idOf(value);
    if (id === null) return Prisma.sql`FALSE`;
    return Prisma.sql`(e.kind = 'transaction' AND ${unlocked("kind", scope)} AND e.amount_cents <> 0 AND e.account_id <> ${id}::uuid
      AND COALESCE(e.transaction_kind::text, 'standard') <> ALL(${[...TRANSFER_KINDS]}::text[]) AND e.fee_of_transfer_id IS NULL
      AND NOT EXISTS (SELECT 1 FROM transfers tf WHERE tf.inflow_entry_id = e.id OR tf.outflow_entry_id = e.id)
      AND EXISTS (SELECT 1 FROM accounts ta WHERE ta.id = ${id}::uuid AND ta.family_id = ${scope.familyId}::uuid AND ta.status <> 'pending_deletion'))`;
  },
  async execute(tx, value, scope) {
    const target = await targetAccountOf(tx, scope.familyId, value);
    if (!target) return 0;
    const selected = Prisma.sql`${scope.match} AND ${setAsTransfer.changes(value, scope)}`;
    // The destination is the inflow's account: the target when the matched entry is the outflow.
    const destination = Prisma.sql`(CASE WHEN e.amount_cents > 0 THEN ${target.accountType}::text ELSE sa.account_type::text END)`;
    const [need] = await tx.$queryRaw<{ found: boolean }[]>`
      SELECT EXISTS (SELECT 1 FROM entries e JOIN accounts sa ON sa.id = e.account_id
                      WHERE ${selected} AND ${destination} = ANY(${INVESTMENT_TYPES}::text[])) AS found`;
    const category = need?.found ? await familyCategoryNamed(tx, scope.familyId, INVESTMENT_CONTRIBUTIONS_CATEGORY) : null;
    const entryId = risingIds();
    const transferId = risingIds();
    const newId = entryId(Prisma.sql`k.n`);
    const [result] = await tx.$queryRaw<{ modified: number; made: number; first_date: Date | null }[]>`
      WITH k AS (
        SELECT e.id AS entry_id, e.amount_cents, e.currency, e.date, sa.name AS source_name,
               ROW_NUMBER() OVER (ORDER BY e.date, e.id) AS n,
               ${caseOfType(destination, OUTFLOW_KINDS)} AS outflow_kind,
               ${caseOfType(destination, NAME_PREFIXES)} AS prefix
          FROM entries e JOIN accounts sa ON sa.id = e.account_id
         WHERE ${selected}
      ), made AS (
        INSERT INTO entries (id, family_id, account_id, kind, date, name, amount_cents, currency, transaction_kind, category_id, created_at, updated_at)
        SELECT ${newId}, ${scope.familyId}::uuid, ${target.id}::uuid, 'transaction'::"EntryKind", k.date,
               k.prefix || CASE WHEN k.amount_cents > 0 THEN ' from ' ELSE ' to ' END || k.source_name,
               -k.amount_cents, k.currency,
               (CASE WHEN k.amount_cents > 0 THEN 'funds_movement' ELSE k.outflow_kind END)::"TransactionKind",
               CASE WHEN k.amount_cents < 0 AND k.outflow_kind = 'investment_contribution' THEN ${category}::uuid END,
               now(), now()
          FROM k
        RETURNING id
      ), paired AS (
        INSERT INTO transfers (id, family_id, inflow_entry_id, outflow_entry_id, status, created_at, updated_at)
        SELECT ${transferId(Prisma.sql`k.n`)}, ${scope.familyId}::uuid,
               CASE WHEN k.amount_cents > 0 THEN ${newId} ELSE k.entry_id END,
               CASE WHEN k.amount_cents > 0 THEN k.entry_id ELSE ${newId} END,
               'confirmed'::"TransferStatus", now(), now()
          FROM k
      ), changed AS (
        UPDATE entries e
           SET transaction_kind = (CASE WHEN k.amount_cents > 0 THEN k.outflow_kind ELSE 'funds_movement' END)::"TransactionKind",
               category_id = CASE WHEN k.amount_cents > 0 AND k.outflow_kind = 'investment_contribution' AND e.category_id IS NULL
                                  THEN ${category}::uuid ELSE e.category_id END,
               updated_at = now()
          FROM k
         WHERE e.id = k.entry_id
        RETURNING e.date
      )
      SELECT (SELECT count(*) FROM changed)::int AS modified, (SELECT count(*) FROM made)::int AS made, (SELECT min(date) FROM changed) AS first_date`;
    if (!result || result.modified === 0) return 0;
    // The new sides change the target's balances; the matched sides only changed kind.
    await requestAccountSync(tx, scope.familyId, target.id, result.first_date ? isoDateOf(result.first_date) : null);
    return result.modified;
  },
};

const EXECUTORS: Record<RuleActionType, ActionExecutor> = {
  set_transaction_category: referenceColumn("category_id", "categories", "category_id"),
  set_transaction_tags: setTags,
  set_transaction_merchant: referenceColumn("merchant_id", "merchants", "merchant_id"),
  set_transaction_name: setName,
  set_investment_activity_label: setActivityLabel,
  exclude_transaction: excludeTransaction,
  set_as_transfer_or_payment: setAsTransfer,
};

/** The executor of a stored action type; an unknown one fails the run (Sure's UnsupportedActionError). */
export function executorOf(actionType: string): ActionExecutor {
  if (!(RULE_ACTION_TYPES as readonly string[]).includes(actionType)) throw new RuleDefinitionError(`Unsupported action type: ${actionType}`);
  return EXECUTORS[actionType as RuleActionType];
}
