import {
  COMPOUND_CONDITION,
  RULE_AMOUNT_VALUE,
  RULE_CONDITION_TYPES,
  RULE_OPERATORS,
  RULE_TRANSACTION_TYPES,
  minorUnitDigits,
  type RuleConditionType,
  UUID_TEXT,
} from "@hearth/contracts";
import { Prisma } from "../generated/prisma/client";
import { isoDateOf } from "../ledger/dates";
import { RuleDefinitionError, type RuleDefinition, type StoredCondition } from "./rule-definition";

// Conditions become one SQL condition on `entries e`: every value a bound parameter; only
// operators and column names (from the fixed tables below) are SQL text.

/** Sure's Transaction::TRANSFER_KINDS. */
export const TRANSFER_KINDS = ["funds_movement", "cc_payment", "loan_payment", "investment_contribution"] as const;

const COMPARISONS: Record<string, Prisma.Sql> = {
  ">": Prisma.raw(">"),
  ">=": Prisma.raw(">="),
  "<": Prisma.raw("<"),
  "<=": Prisma.raw("<="),
  "=": Prisma.raw("="),
  "!=": Prisma.raw("<>"),
};

/** Minor units per major unit by currency, for the currencies whose minor unit is not a hundredth (JPY 1, KWD 1000). */
const UNUSUAL_SCALES = (() => {
  const byScale = new Map<number, string[]>();
  for (const currency of Intl.supportedValuesOf("currency")) {
    const digits = minorUnitDigits(currency);
    if (digits !== 2) byScale.set(10 ** digits, [...(byScale.get(10 ** digits) ?? []), currency]);
  }
  return [...byScale];
})();

/** How many minor units make one major unit of the entry's currency. */
function scaleOfCurrency(): Prisma.Sql {
  if (UNUSUAL_SCALES.length === 0) return Prisma.sql`100`;
  const cases = UNUSUAL_SCALES.map(([scale, currencies]) => Prisma.sql`WHEN e.currency = ANY(${currencies}::text[]) THEN ${scale}::numeric`);
  return Prisma.sql`(CASE ${Prisma.join(cases, " ")} ELSE 100::numeric END)`;
}

/** Sure's normalize_value: runs of whitespace become one space, ends trimmed. */
export function normalizedValue(value: string): string {
  return value.replace(/\s+/g, " ").trim();
}

/** Sure's sanitize_sql_like: the value's own %, _ and \ match literally. */
export function likePattern(value: string): string {
  return `%${normalizedValue(value).replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
}

/** Sure's normalize_field: the column with whitespace normalised as the value is. */
function normalizedColumn(column: Prisma.Sql): Prisma.Sql {
  return Prisma.sql`BTRIM(REGEXP_REPLACE(${column}, '[[:space:]]+', ' ', 'g'))`;
}

function required(condition: StoredCondition): string {
  if (condition.value === null || condition.value.trim() === "") throw new RuleDefinitionError(`${condition.conditionType} needs a value`);
  return condition.value;
}

function uuidValue(condition: StoredCondition): string {
  const value = required(condition).trim();
  if (!UUID_TEXT.test(value)) throw new RuleDefinitionError(`${condition.conditionType} value is not an id: ${value}`);
  return value;
}

function textSql(column: Prisma.Sql, condition: StoredCondition): Prisma.Sql {
  switch (condition.operator) {
    case "is_null":
      return Prisma.sql`${column} IS NULL`;
    case "like":
      return Prisma.sql`${normalizedColumn(column)} ILIKE ${likePattern(required(condition))}`;
    default:
      return Prisma.sql`${normalizedColumn(column)} = ${normalizedValue(required(condition))}`;
  }
}

/** Sure's TransactionAmount: the absolute amount, in major units of the entry's currency, against the value. */
function amountSql(condition: StoredCondition): Prisma.Sql {
  const value = required(condition).trim();
  if (!RULE_AMOUNT_VALUE.test(value)) throw new RuleDefinitionError(`transaction_amount value is not a number: ${value}`);
  return Prisma.sql`ABS(e.amount_cents)::numeric ${COMPARISONS[condition.operator]!} ${value}::numeric * ${scaleOfCurrency()}`;
}

const isTransferKind = Prisma.sql`COALESCE(e.transaction_kind::text, 'standard') = ANY(${[...TRANSFER_KINDS]}::text[])`;

/** Sure's TransactionType (as Transaction::Search#apply_type_filter): transfers are neither income nor expense; zero is an expense. */
function typeSql(condition: StoredCondition): Prisma.Sql {
  switch (required(condition)) {
    case "income":
      return Prisma.sql`(e.amount_cents < 0 AND NOT ${isTransferKind})`;
    case "expense":
      return Prisma.sql`(e.amount_cents >= 0 AND NOT ${isTransferKind})`;
    case "transfer":
      return isTransferKind;
    default:
      throw new RuleDefinitionError(`transaction_type value must be one of: ${RULE_TRANSACTION_TYPES.join(", ")}`);
  }
}

function selectSql(column: Prisma.Sql, condition: StoredCondition): Prisma.Sql {
  return condition.operator === "is_null" ? Prisma.sql`${column} IS NULL` : Prisma.sql`${column} = ${uuidValue(condition)}::uuid`;
}

/**
 * Sure's TransactionTag: a correlated EXISTS per condition, so two ANDed tag conditions can both
 * hold and a transaction with several tags is matched once. is_null: no tag at all.
 */
function tagSql(condition: StoredCondition): Prisma.Sql {
  if (condition.operator === "is_null") return Prisma.sql`NOT EXISTS (SELECT 1 FROM entry_tags et WHERE et.entry_id = e.id)`;
  return Prisma.sql`EXISTS (SELECT 1 FROM entry_tags et WHERE et.entry_id = e.id AND et.tag_id = ${uuidValue(condition)}::uuid)`;
}

/**
 * Sure's TransactionDetails searches the provider's raw details (transactions.extra). Hearth keeps
 * none (transactions come from the API and imports, not bank feeds), so every transaction has
 * empty details: is_null matches all, the others nothing.
 */
function detailsSql(condition: StoredCondition): Prisma.Sql {
  if (condition.operator !== "is_null") required(condition);
  return condition.operator === "is_null" ? Prisma.sql`TRUE` : Prisma.sql`FALSE`;
}

function leafSql(condition: StoredCondition): Prisma.Sql {
  const type = condition.conditionType;
  if (!Object.hasOwn(RULE_CONDITION_TYPES, type)) throw new RuleDefinitionError(`Unsupported condition type: ${type}`);
  const kind = RULE_CONDITION_TYPES[type as RuleConditionType];
  if (!(RULE_OPERATORS[kind] as readonly string[]).includes(condition.operator)) {
    throw new RuleDefinitionError(`Unsupported operator: ${condition.operator} for ${type}`);
  }
  switch (type as RuleConditionType) {
    case "transaction_name":
      return textSql(Prisma.sql`e.name`, condition);
    case "transaction_notes":
      return textSql(Prisma.sql`e.notes`, condition);
    case "transaction_details":
      return detailsSql(condition);
    case "transaction_amount":
      return amountSql(condition);
    case "transaction_type":
      return typeSql(condition);
    case "transaction_merchant":
      return selectSql(Prisma.sql`e.merchant_id`, condition);
    case "transaction_category":
      return selectSql(Prisma.sql`e.category_id`, condition);
    case "transaction_account":
      return selectSql(Prisma.sql`e.account_id`, condition);
    case "transaction_tag":
      return tagSql(condition);
  }
}

/** One condition; a compound ANDs or ORs its sub-conditions, and one without any matches everything (as Sure's scope is left alone). */
export function conditionSql(condition: StoredCondition, nested = false): Prisma.Sql {
  if (condition.conditionType !== COMPOUND_CONDITION) return leafSql(condition);
  if (nested) throw new RuleDefinitionError("Compound conditions cannot be nested");
  if (condition.operator !== "and" && condition.operator !== "or") throw new RuleDefinitionError(`Unsupported operator: ${condition.operator} for compound`);
  if (condition.subConditions.length === 0) return Prisma.sql`TRUE`;
  const parts = condition.subConditions.map((sub) => Prisma.sql`(${conditionSql(sub, true)})`);
  return Prisma.sql`(${Prisma.join(parts, condition.operator === "and" ? " AND " : " OR ")})`;
}

/**
 * The entries a rule matches (Sure's Registry::TransactionResource#resource_scope and the
 * conditions, ANDed): the family's entries in its visible accounts (active or draft), on or after
 * the effective date. The caller adds which kinds of entry it acts on.
 */
export function matchSql(rule: Pick<RuleDefinition, "familyId" | "effectiveDate" | "conditions">): Prisma.Sql {
  const parts = [
    Prisma.sql`e.family_id = ${rule.familyId}::uuid`,
    Prisma.sql`e.account_id IN (SELECT a.id FROM accounts a WHERE a.family_id = ${rule.familyId}::uuid AND a.status IN ('active', 'draft'))`,
  ];
  if (rule.effectiveDate) parts.push(Prisma.sql`e.date >= ${isoDateOf(rule.effectiveDate)}::date`);
  for (const condition of rule.conditions) parts.push(Prisma.sql`(${conditionSql(condition)})`);
  return Prisma.join(parts, " AND ");
}
