import type { FinanceTx } from "../db";
import { Prisma } from "../generated/prisma/client";
import { RULE_INCLUDE, type RuleRow } from "../rules/rule-definition";

/** Where the records a rule's operand may name are: the family's categories, tags and own merchants (`r`), up to the family's id. */
const REF_TABLES = {
  Category: Prisma.sql`categories r WHERE r.family_id = `,
  Tag: Prisma.sql`tags r WHERE r.family_id = `,
  Merchant: Prisma.sql`merchants r WHERE r.kind = 'FamilyMerchant' AND r.family_id = `,
};

/** A type of record a rule's operand may name (Sure's value_ref type). */
export type RefType = keyof typeof REF_TABLES;

/** A category, tag or merchant a rule's operand names. */
export interface NamedRecord {
  id: string;
  name: string;
}

/** The family's rules after the rule `after` (null: from the first) by id, at most `take`, with their conditions and actions. */
export const rulesAfter = (db: FinanceTx, familyId: string, after: string | null, take: number): Promise<RuleRow[]> =>
  db.rule.findMany({
    where: { familyId, ...(after === null ? {} : { id: { gt: after } }) },
    orderBy: { id: "asc" },
    take,
    include: RULE_INCLUDE,
  });

/** The family's records of `type` that have one of `ids` or one of `names`. */
export const recordsByIdOrName = (db: FinanceTx, familyId: string, type: RefType, ids: string[], names: string[]): Promise<NamedRecord[]> =>
  db.$queryRaw<NamedRecord[]>(Prisma.sql`
    SELECT r.id::text AS id, r.name FROM ${REF_TABLES[type]}${familyId}::uuid
       AND (r.id = ANY(${ids}::uuid[]) OR r.name = ANY(${names}::text[]))`);
