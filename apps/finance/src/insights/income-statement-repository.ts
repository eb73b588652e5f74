import type { GetIncomeStatementArgs, IncomeStatementGroupBy } from "@hearth/contracts";
import type { FinanceDb } from "../db";
import { Prisma } from "../generated/prisma/client";
import { FLOW_GROUPINGS, groupedFlows } from "./income-statement-flow-queries";
import type { FlowRow, Period } from "./income-statement-flows";

type Filters = Pick<GetIncomeStatementArgs, "category_id" | "merchant_id" | "tag_id">;

/** The filters as one SQL condition on `e`, or undefined for none. */
function filterOf(filters: Filters): Prisma.Sql | undefined {
  const conditions: Prisma.Sql[] = [];
  if (filters.category_id === null) conditions.push(Prisma.sql`e.category_id IS NULL`);
  else if (filters.category_id !== undefined) conditions.push(Prisma.sql`e.category_id = ${filters.category_id}::uuid`);
  if (filters.merchant_id !== undefined) conditions.push(Prisma.sql`e.merchant_id = ${filters.merchant_id}::uuid`);
  if (filters.tag_id !== undefined)
    conditions.push(Prisma.sql`EXISTS (SELECT 1 FROM entry_tags ft WHERE ft.entry_id = e.id AND ft.tag_id = ${filters.tag_id}::uuid)`);
  return conditions.length === 0 ? undefined : Prisma.join(conditions, " AND ");
}

export function createIncomeStatementRepository(db: FinanceDb) {
  return {
    /**
     * The period's flows by the grouping's key, and, for tags (where an entry may sit in several
     * groups), the flows once per entry for the totals; null when the groups add up to them.
     */
    async flows(familyId: string, period: Period, currency: string, groupBy: IncomeStatementGroupBy, filters: Filters) {
      const where = filterOf(filters);
      const grouping = { ...FLOW_GROUPINGS[groupBy], ...(where ? { where } : {}) };
      const [grouped, totals] = await Promise.all([
        groupedFlows(db, familyId, period, currency, grouping),
        groupBy === "tag" ? groupedFlows(db, familyId, period, currency, { key: Prisma.sql`NULL::uuid`, ...(where ? { where } : {}) }) : null,
      ]);
      return { grouped, totals } satisfies { grouped: FlowRow[]; totals: FlowRow[] | null };
    },

    /** The names of the family's categories, merchants or tags with these ids. */
    async names(familyId: string, groupBy: IncomeStatementGroupBy, ids: string[]): Promise<Map<string, string>> {
      if (ids.length === 0) return new Map();
      const where = { familyId, id: { in: ids } };
      const select = { id: true, name: true } as const;
      const rows =
        groupBy === "category"
          ? await db.category.findMany({ where, select })
          : groupBy === "merchant"
            ? await db.merchant.findMany({ where, select })
            : await db.tag.findMany({ where, select });
      return new Map(rows.map((row) => [row.id, row.name]));
    },
  };
}
export type IncomeStatementRepository = ReturnType<typeof createIncomeStatementRepository>;
