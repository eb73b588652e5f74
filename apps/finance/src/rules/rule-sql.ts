import type { RuleActionType } from "@hearth/contracts";
import { Prisma } from "../generated/prisma/client";
import { executorOf } from "./action-queries";
import { matchSql } from "./condition-sql";
import type { RuleDefinition } from "./rule-definition";

export interface ApplyOptions {
  /** Overwrite attributes people set by hand (Sure's ignore_attribute_locks). */
  ignoreLocks: boolean;
  /** Only this entry (a transaction just created). */
  entryId?: string;
  /** Only the entries this import wrote (as it publishes). */
  importId?: string;
  /** Only the entries in this slice of the (date, id) order: one chunk of a rule run (see rule-run-job.ts). */
  range?: EntryRange;
}

/** Where an entry sits in the (date, id) order a rule run is cut along. */
export interface EntryKey {
  /** YYYY-MM-DD, as text: neither a time zone nor the session's DateStyle comes between the column and the bound. */
  date: string;
  id: string;
}

/** The entries after `after` (from the first when null) up to and including `upTo`. */
export interface EntryRange {
  after: EntryKey | null;
  upTo: EntryKey;
}

/** The range as conditions on `entries e`: the date bounds alone let the date-ordered indexes read only the slice. */
function rangeSql({ after, upTo }: EntryRange): Prisma.Sql {
  const upper = Prisma.sql` AND e.date <= ${upTo.date}::date AND (e.date, e.id) <= (${upTo.date}::date, ${upTo.id}::uuid)`;
  if (after === null) return upper;
  return Prisma.sql`${upper} AND e.date >= ${after.date}::date AND (e.date, e.id) > (${after.date}::date, ${after.id}::uuid)`;
}

/**
 * A rule made SQL: the entries it acts on, which of them it would change, and its actions in order
 * with the scope they run in. Throws RuleDefinitionError for a rule that cannot run.
 */
export function compileRule(rule: RuleDefinition, options: ApplyOptions) {
  const restriction =
    options.entryId !== undefined
      ? Prisma.sql` AND e.id = ${options.entryId}::uuid`
      : options.importId !== undefined
        ? Prisma.sql` AND e.import_id = ${options.importId}::uuid`
        : Prisma.empty;
  const match = Prisma.sql`${matchSql(rule)}${restriction}${options.range ? rangeSql(options.range) : Prisma.empty}`;
  const scope = { familyId: rule.familyId, match, ignoreLocks: options.ignoreLocks };
  const actions = rule.actions.map((action) => ({ type: action.actionType as RuleActionType, value: action.value, executor: executorOf(action.actionType) }));
  const kinds = [...new Set(["transaction", ...actions.map((action) => action.executor.kind)])];
  const changes = actions.map((action) => ({ type: action.type, sql: action.executor.changes(action.value, scope) }));
  return {
    /** The entries the run counts as queued: the matched transactions (and trades when it labels them). */
    inScope: Prisma.sql`${match} AND e.kind = ANY(${kinds}::"EntryKind"[])`,
    changes,
    anyChange:
      changes.length > 0
        ? Prisma.join(
            changes.map((change) => Prisma.sql`(${change.sql})`),
            " OR ",
          )
        : Prisma.sql`FALSE`,
    /** What the actions are done with, in order. */
    actions,
    scope,
  };
}
export type CompiledRule = ReturnType<typeof compileRule>;

/** The action types that would change entry `e`, as a text array (a preview row's `changes`). */
export function changingActionsSql(compiled: CompiledRule): Prisma.Sql {
  return compiled.changes.length > 0
    ? Prisma.sql`ARRAY_REMOVE(ARRAY[${Prisma.join(compiled.changes.map((change) => Prisma.sql`CASE WHEN ${change.sql} THEN ${change.type} END`))}]::text[], NULL)`
    : Prisma.sql`ARRAY[]::text[]`;
}
