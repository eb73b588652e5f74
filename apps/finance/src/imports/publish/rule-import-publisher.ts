import {
  RULE_CONDITION_REFERENCES,
  AppError,
  CreateCategoryBodySchema,
  CreateMerchantBodySchema,
  CreateRuleBodySchema,
  CreateTagBodySchema,
  RULE_ACTION_REFERENCES,
  RULE_LIMITS,
  type RuleActionInput,
  type RuleConditionInput,
  UUID_TEXT,
} from "@hearth/contracts";
import type { FinanceTx } from "../../db";
import { dateOf } from "../../ledger/dates";
import { checkActionReferences, checkRoomForRule } from "../../rules/rule-validation";
import { lockFamilyRules } from "../family-lock-queries";
import type { RuleRowValues } from "../parsing/row-types";
import { importRows } from "./import-row-queries";
import { PublishError } from "./publish-error";
import {
  countFamilyRules,
  createImportedRule,
  makeReference,
  referenceNamed,
  referenceWithId,
  replaceRuleContent,
  transactionRulesNamed,
  type MadeKind,
  type ReferenceKind,
} from "./rule-import-queries";
import type { PublishTarget } from "./transaction-import-publisher";

export interface RulePublishOutcome {
  rules_created: number;
  rules_updated: number;
  /** Made because a condition or action named them and the family had none of that name. */
  categories_created: number;
  merchants_created: number;
  tags_created: number;
}

/** The conditions whose value names a record (Sure's exporter writes the first three as names). */
const CONDITION_REFERENCES: Readonly<Record<string, ReferenceKind>> = RULE_CONDITION_REFERENCES;
/** What Sure's RuleImport makes when a name is missing: categories and merchants, and tags for an action; never an account. */
const MADE_FOR_CONDITION: ReadonlySet<ReferenceKind> = new Set(["Category", "Merchant"]);
const MADE_FOR_ACTION: ReadonlySet<ReferenceKind> = new Set(["Category", "Merchant", "Tag"]);

/** Rows checked between progress reports. */
const PROGRESS_EVERY = 500;

/** One rule the import writes: as the last row naming it leaves it. */
interface PlannedRule {
  /** The row that first made or named it (where a failed write is blamed). */
  rowNumber: number;
  /** The family's rule it replaces; null for a new one. */
  existingId: string | null;
  rule: ValidRule;
}

/**
 * Publishes a RuleImport as Sure's RuleImport#import! does, inside the caller's transaction:
 * a named rule the family has (the oldest of that name) gets the row's active flag and
 * effective date and its conditions and actions replaced; any other row makes a new rule,
 * within the family's 200. Names of categories, merchants and tags in conditions and actions
 * become ids, the record made when missing where Sure makes it (a tag only for an action);
 * a value that is already the id of the family's record is kept. A tag condition's or an
 * account's name must exist (Sure would store the name, and the rule would never match).
 * Every row is checked in order as rules.create checks a rule; the first that fails fails the
 * import with its row number and reason, and nothing is written. A name on several rows is
 * written once, as its last row leaves it (Sure replaces it row after row to the same end).
 */
export async function publishRuleImport(tx: FinanceTx, target: PublishTarget, onProgress: (rowsDone: number) => Promise<void>): Promise<RulePublishOutcome> {
  const { familyId } = target;
  // rules.create's lock: parallel creates cannot pass the family's limit with this import.
  await lockFamilyRules(tx, familyId);
  const rows = await importRows(tx, target.id);
  const outcome: RulePublishOutcome = { rules_created: 0, rules_updated: 0, categories_created: 0, merchants_created: 0, tags_created: 0 };
  const references = referenceResolver(tx, familyId, target.id, outcome);
  const existing = await existingRules(tx, familyId, rows);
  let room = RULE_LIMITS.rulesPerFamily - (await countFamilyRules(tx, familyId));

  const planned: PlannedRule[] = [];
  const plannedByName = new Map<string, PlannedRule>();
  let checked = 0;
  for (const { rowNumber, values } of rows) {
    if (values === null) continue;
    await blamingRow(rowNumber, async () => {
      const rule = await validRule(values as unknown as RuleRowValues, references);
      const again = rule.name === null ? undefined : plannedByName.get(rule.name);
      if (again) {
        again.rule = rule;
        return;
      }
      const existingId = rule.name === null ? null : (existing.get(rule.name) ?? null);
      if (existingId === null) {
        if (room <= 0) throw new RowProblem(`A family can have at most ${RULE_LIMITS.rulesPerFamily} rules`);
        room--;
      }
      const plan = { rowNumber, existingId, rule };
      planned.push(plan);
      if (rule.name !== null) plannedByName.set(rule.name, plan);
    });
    if (++checked % PROGRESS_EVERY === 0) await onProgress(checked);
  }

  for (const { rowNumber, existingId, rule } of planned) {
    await blamingRow(rowNumber, async () => {
      await checkActionReferences(tx, familyId, rule.actions);
      const content = {
        active: rule.active,
        effectiveDate: rule.effectiveDate === null ? null : dateOf(rule.effectiveDate),
        conditions: rule.conditions,
        actions: rule.actions,
      };
      if (existingId !== null) {
        await replaceRuleContent(tx, existingId, content);
        outcome.rules_updated++;
        return;
      }
      await checkRoomForRule(tx, familyId);
      await createImportedRule(tx, { familyId, importId: target.id, name: rule.name, resourceType: "transaction", ...content });
      outcome.rules_created++;
    });
  }
  await onProgress(checked);
  return outcome;
}

/** The family's transaction rules by the names the rows give, the oldest of each name (Sure's find_or_initialize_by). */
async function existingRules(tx: FinanceTx, familyId: string, rows: { values: unknown }[]): Promise<Map<string, string>> {
  const names = new Set<string>();
  for (const { values } of rows) {
    const name = (values as RuleRowValues | null)?.name?.trim();
    if (name) names.add(name);
  }
  if (names.size === 0) return new Map();
  const found = await transactionRulesNamed(tx, familyId, [...names]);
  // Newest first, so the oldest of a name is set last.
  return new Map(found.map((rule) => [rule.name ?? "", rule.id]));
}

/** Runs a row's step; what it finds wrong (or rules-validation refuses) becomes the import's error, naming the row. */
async function blamingRow(rowNumber: number, step: () => Promise<void>): Promise<void> {
  try {
    await step();
  } catch (err) {
    if (err instanceof RowProblem || err instanceof AppError) throw new PublishError(`Row ${rowNumber}: ${err.message}`);
    throw err;
  }
}

/** Why one row's rule cannot be saved: the publisher prefixes its row number. */
class RowProblem extends Error {}

interface ValidRule {
  name: string | null;
  active: boolean;
  effectiveDate: string | null;
  conditions: RuleConditionInput[];
  actions: RuleActionInput[];
}

/** The row's rule with names resolved, checked by rules.create's schema (types, operators, values, the 20/40 condition limits). */
async function validRule(row: RuleRowValues, references: ReferenceResolver): Promise<ValidRule> {
  const conditions = await resolvedConditions(row.conditions, references, true);
  const actions: Record<string, unknown>[] = [];
  for (const action of row.actions) {
    const type = action.action_type;
    const kind =
      typeof type === "string" && Object.hasOwn(RULE_ACTION_REFERENCES, type) ? RULE_ACTION_REFERENCES[type as keyof typeof RULE_ACTION_REFERENCES] : null;
    const name = kind === null ? null : presentText(action.value);
    actions.push(kind === null || name === null ? action : { ...action, value: await references.resolve(kind, name, String(type), MADE_FOR_ACTION.has(kind)) });
  }
  const parsed = CreateRuleBodySchema.safeParse({
    rule: { name: row.name, resource_type: row.resource_type, active: row.active, effective_date: row.effective_date, conditions, actions },
  });
  if (!parsed.success) {
    const issues = parsed.error.issues.map((issue) => {
      const at = pathText(issue.path.slice(1));
      return at === "" ? issue.message : `${at}: ${issue.message}`;
    });
    throw new RowProblem(issues.join("; "));
  }
  const rule = parsed.data.rule;
  return {
    name: rule.name ?? null,
    active: rule.active ?? false,
    effectiveDate: rule.effective_date ?? null,
    conditions: rule.conditions ?? [],
    actions: rule.actions,
  };
}

/** Conditions with the names in their values resolved; sub-conditions of a top-level compound too. */
async function resolvedConditions(conditions: readonly unknown[], references: ReferenceResolver, topLevel: boolean): Promise<unknown[]> {
  const resolved: unknown[] = [];
  for (const condition of conditions) {
    if (!isRecord(condition)) {
      resolved.push(condition);
      continue;
    }
    const copy = { ...condition };
    const type = condition.condition_type;
    // Own keys only: a condition type like "constructor" names nothing.
    const kind = typeof type === "string" && Object.hasOwn(CONDITION_REFERENCES, type) ? CONDITION_REFERENCES[type] : undefined;
    const name = presentText(condition.value);
    // An is_null condition keeps no value: nothing to find or make.
    if (kind !== undefined && name !== null && condition.operator !== "is_null") {
      copy.value = await references.resolve(kind, name, String(type), MADE_FOR_CONDITION.has(kind));
    }
    if (topLevel && Array.isArray(condition.sub_conditions)) copy.sub_conditions = await resolvedConditions(condition.sub_conditions, references, false);
    resolved.push(copy);
  }
  return resolved;
}

type ReferenceResolver = ReturnType<typeof referenceResolver>;

/** Finds (or makes, with the import's id) the family's categories, merchants, tags and accounts named in rules, each name once per import. */
function referenceResolver(tx: FinanceTx, familyId: string, importId: string, made: RulePublishOutcome) {
  const known = new Map<string, string>();

  /** Makes what Sure's RuleImport makes, with the defaults the API gives (a category's icon from its name, a tag's colour). */
  async function make(kind: MadeKind, name: string, where: string): Promise<string> {
    const check =
      kind === "Category"
        ? CreateCategoryBodySchema.safeParse({ category: { name } })
        : kind === "Merchant"
          ? CreateMerchantBodySchema.safeParse({ merchant: { name } })
          : CreateTagBodySchema.safeParse({ tag: { name } });
    if (!check.success)
      throw new RowProblem(`${where}: cannot make ${kind.toLowerCase()} "${shown(name)}": ${check.error.issues.map((i) => i.message).join("; ")}`);
    if (kind === "Category") made.categories_created++;
    else if (kind === "Merchant") made.merchants_created++;
    else made.tags_created++;
    return makeReference(tx, familyId, importId, kind, name);
  }

  return {
    /** `where`: the condition or action type, for the message. */
    async resolve(kind: ReferenceKind, value: string, where: string, makeWhenMissing: boolean): Promise<string> {
      const cacheKey = `${kind}\u0000${value}`;
      const cached = known.get(cacheKey);
      if (cached !== undefined) return cached;
      let id: string | null;
      if (UUID_TEXT.test(value)) {
        id = await referenceWithId(tx, familyId, kind, value.toLowerCase());
        if (id === null) throw new RowProblem(`${where}: no ${kind.toLowerCase()} of the family has the id ${value}`);
      } else {
        id = await referenceNamed(tx, familyId, kind, value);
        if (id === null && (!makeWhenMissing || kind === "Account")) {
          throw new RowProblem(`${where}: the family has no ${kind.toLowerCase()} named "${shown(value)}"`);
        }
        id ??= await make(kind as MadeKind, value, where);
      }
      known.set(cacheKey, id);
      return id;
    },
  };
}

const isRecord = (value: unknown): value is Record<string, unknown> => value !== null && typeof value === "object" && !Array.isArray(value);

/** A value as text, trimmed; null when blank or not text or a number (Sure's `present?`; the schema judges the rest). */
function presentText(value: unknown): string | null {
  if (typeof value !== "string" && typeof value !== "number") return null;
  const text = String(value).trim();
  return text === "" ? null : text;
}

/** ["conditions", 0, "value"] as conditions[0].value. */
function pathText(path: readonly PropertyKey[]): string {
  return path.map((part, index) => (typeof part === "number" ? `[${part}]` : `${index === 0 ? "" : "."}${String(part)}`)).join("");
}

function shown(name: string): string {
  return name.length > 100 ? `${name.slice(0, 100)}...` : name;
}
