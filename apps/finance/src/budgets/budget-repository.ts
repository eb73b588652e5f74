import { AppError, periodContaining, type BodyOf, type QueryOf } from "@hearth/contracts";
import type { FinanceDb, FinanceTx } from "../db";
import type { Budget } from "../generated/prisma/client";
import { addDays, dateOf, isoDateOf, todayIso } from "../ledger/dates";
import { centsIn } from "../ledger/money";
import { periodActuals, type PeriodActuals } from "./budget-actuals";
import { budgetableRange } from "./budget-periods";

type BudgetChanges = BodyOf<"budgets.update">["budget"];
type LineChanges = BodyOf<"budgetCategories.update">["budget_category"];

/** A budget with what its list item shows beyond its row: the sum of its top-level limits. */
export type BudgetRow = Budget & { allocatedCents: bigint };

const CATEGORY_FIELDS = { id: true, name: true, color: true, icon: true, parentId: true } as const;
const LINE_INCLUDE = { category: { select: CATEGORY_FIELDS }, budget: true } as const;

/** How far back a rollover chain is followed (ten years of monthly periods). */
export const MAX_ROLLOVER_PERIODS = 120;

/** Every query is scoped by the family of the verified caller. */
export function createBudgetRepository(db: FinanceDb, settingsOf: (familyId: string) => Promise<{ monthStartDay: number; currency: string }>) {
  /** Serialises what makes budgets and their lines for one family (a POST racing another, a sync racing a new budget). */
  const lockFamilyBudgets = (tx: FinanceTx, familyId: string) => tx.$executeRaw`SELECT pg_advisory_xact_lock(hashtextextended(${`budgets:${familyId}`}, 0))`;

  /**
   * One line per family category in each of the given budgets (Sure's sync_budget_categories):
   * the missing ones are added at zero; lines of deleted categories went with them (foreign key).
   */
  const syncLines = async (tx: FinanceTx, familyId: string, budgetIds: string[] | "all") => {
    await tx.$executeRaw`
      INSERT INTO budget_categories (id, family_id, budget_id, category_id, budgeted_spending_cents, currency, created_at, updated_at)
      SELECT gen_random_uuid(), b.family_id, b.id, c.id, 0, b.currency, now(), now()
        FROM budgets b JOIN categories c ON c.family_id = b.family_id
       WHERE b.family_id = ${familyId}::uuid AND (${budgetIds === "all"} OR b.id = ANY(${budgetIds === "all" ? [] : budgetIds}::uuid[]))
      ON CONFLICT (budget_id, category_id) DO NOTHING`;
  };
  /** Lines in step before a read: a cheap look first, the locked insert only when a category has no line yet. */
  const inSync = async (familyId: string, budgetIds: string[] | "all") => {
    const [{ missing } = { missing: false }] = await db.$queryRaw<{ missing: boolean }[]>`
      SELECT EXISTS (
        SELECT 1 FROM budgets b JOIN categories c ON c.family_id = b.family_id
         WHERE b.family_id = ${familyId}::uuid AND (${budgetIds === "all"} OR b.id = ANY(${budgetIds === "all" ? [] : budgetIds}::uuid[]))
           AND NOT EXISTS (SELECT 1 FROM budget_categories bc WHERE bc.budget_id = b.id AND bc.category_id = c.id)) AS missing`;
    if (!missing) return;
    await db.$transaction(async (tx) => {
      await lockFamilyBudgets(tx, familyId);
      await syncLines(tx, familyId, budgetIds);
    });
  };

  const withAllocated = async (budgets: Budget[]): Promise<BudgetRow[]> => {
    if (budgets.length === 0) return [];
    const sums = await db.$queryRaw<{ budget_id: string; allocated: bigint }[]>`
      SELECT bc.budget_id::text AS budget_id, coalesce(sum(bc.budgeted_spending_cents), 0)::bigint AS allocated
        FROM budget_categories bc JOIN categories c ON c.id = bc.category_id
       WHERE bc.budget_id = ANY(${budgets.map((budget) => budget.id)}::uuid[]) AND c.parent_id IS NULL
       GROUP BY bc.budget_id`;
    const byBudget = new Map(sums.map((row) => [row.budget_id, row.allocated]));
    return budgets.map((budget) => ({ ...budget, allocatedCents: byBudget.get(budget.id) ?? 0n }));
  };

  const findBudget = async (familyId: string, id: string): Promise<Budget> => {
    const budget = await db.budget.findFirst({ where: { id, familyId } });
    if (!budget) throw AppError.notFound("Budget");
    return budget;
  };

  const repository = {
    async list(familyId: string, query: QueryOf<"budgets.list">) {
      const where = {
        familyId,
        ...(query.start_date ? { startDate: { gte: dateOf(query.start_date) } } : {}),
        ...(query.end_date ? { endDate: { lte: dateOf(query.end_date) } } : {}),
      };
      const [rows, total] = await Promise.all([
        db.budget.findMany({ where, orderBy: [{ startDate: "desc" }, { id: "asc" }], skip: (query.page - 1) * query.per_page, take: query.per_page }),
        db.budget.count({ where }),
      ]);
      return { rows: await withAllocated(rows), total };
    },

    /** The budget, its lines in step with the family's categories, and its period's actuals (its allocation is the figures'). */
    async detail(familyId: string, id: string) {
      const budget = await findBudget(familyId, id);
      await inSync(familyId, [budget.id]);
      return { budget, ...(await repository.figuresInput(familyId, budget)) };
    },

    /** What the figures of a budget are computed from: the family's categories, the budget's lines, the period's actuals. */
    async figuresInput(familyId: string, budget: Budget) {
      const [categories, lines, actuals] = await Promise.all([
        db.category.findMany({ where: { familyId }, select: { id: true, parentId: true } }),
        db.budgetCategory.findMany({ where: { budgetId: budget.id }, select: { categoryId: true, budgetedSpendingCents: true, rolloverEnabled: true } }),
        periodActuals(db, familyId, { start: isoDateOf(budget.startDate), end: isoDateOf(budget.endDate) }, budget.currency),
      ]);
      return {
        categories,
        lines: lines.map((line) => ({ categoryId: line.categoryId, budgetedCents: line.budgetedSpendingCents, rolloverEnabled: line.rolloverEnabled })),
        actuals: actuals satisfies PeriodActuals,
      };
    },

    /**
     * The budget of the period containing `date` (our extension): made once, with a line per
     * category; asking again answers the same budget. Sure's Budget.find_or_bootstrap, with its
     * budgetable range (two years back, or the oldest entry's month, to two years ahead).
     */
    async create(familyId: string, date: string): Promise<{ created: boolean; id: string }> {
      const settings = await settingsOf(familyId);
      const oldest = await db.entry.findFirst({ where: { familyId }, orderBy: { date: "asc" }, select: { date: true } });
      const range = budgetableRange(todayIso(), settings.monthStartDay, oldest ? isoDateOf(oldest.date) : null);
      const period = periodContaining(date, settings.monthStartDay);
      if (period.start < range.start || period.start > range.end)
        throw AppError.validation([`Start date must fall in a period starting from ${range.start} to ${range.end}`]);
      return db.$transaction(async (tx) => {
        await lockFamilyBudgets(tx, familyId);
        const existing = await tx.budget.findFirst({ where: { familyId, startDate: dateOf(period.start) } });
        if (existing) return { created: false, id: existing.id };
        const budget = await tx.budget.create({
          data: { familyId, startDate: dateOf(period.start), endDate: dateOf(period.end), currency: settings.currency },
        });
        await syncLines(tx, familyId, [budget.id]);
        return { created: true, id: budget.id };
      });
    },

    async update(familyId: string, id: string, changes: BudgetChanges) {
      const budget = await findBudget(familyId, id);
      const cents = (text: string | null | undefined, field: string) =>
        text === undefined ? undefined : text === null ? null : centsIn(text, budget.currency, field);
      await db.budget.update({
        where: { id: budget.id },
        data: {
          ...(changes.budgeted_spending !== undefined ? { budgetedSpendingCents: cents(changes.budgeted_spending, "Budgeted spending") } : {}),
          ...(changes.expected_income !== undefined ? { expectedIncomeCents: cents(changes.expected_income, "Expected income") } : {}),
        },
      });
    },

    async listLines(familyId: string, query: QueryOf<"budgetCategories.list">) {
      await inSync(familyId, query.budget_id ? [query.budget_id] : "all");
      const where = {
        familyId,
        ...(query.budget_id ? { budgetId: query.budget_id } : {}),
        ...(query.category_id ? { categoryId: query.category_id } : {}),
        budget: {
          ...(query.start_date ? { startDate: { gte: dateOf(query.start_date) } } : {}),
          ...(query.end_date ? { endDate: { lte: dateOf(query.end_date) } } : {}),
        },
      };
      const [rows, total] = await Promise.all([
        db.budgetCategory.findMany({
          where,
          include: LINE_INCLUDE,
          orderBy: [{ budget: { startDate: "desc" } }, { category: { name: "asc" } }, { id: "asc" }],
          skip: (query.page - 1) * query.per_page,
          take: query.per_page,
        }),
        db.budgetCategory.count({ where }),
      ]);
      // A subcategory line shows its parent's limit when it has none: the parents' limits of the same budgets.
      const parentIds = [...new Set(rows.map((row) => row.category.parentId).filter((id): id is string => id !== null))];
      const parents = parentIds.length
        ? await db.budgetCategory.findMany({
            where: { budgetId: { in: [...new Set(rows.map((row) => row.budgetId))] }, categoryId: { in: parentIds } },
            select: { budgetId: true, categoryId: true, budgetedSpendingCents: true },
          })
        : [];
      const parentLimit = new Map(parents.map((row) => [`${row.budgetId}:${row.categoryId}`, row.budgetedSpendingCents]));
      return {
        rows: rows.map((row) => ({
          ...row,
          parentBudgetedCents: row.category.parentId ? (parentLimit.get(`${row.budgetId}:${row.category.parentId}`) ?? 0n) : null,
        })),
        total,
      };
    },

    /** Every line of one budget of the family, as findLine gives one (404 when the budget is not the family's). */
    async linesOfBudget(familyId: string, budgetId: string) {
      await inSync(familyId, [budgetId]);
      const budget = await db.budget.findFirst({ where: { id: budgetId, familyId }, select: { id: true } });
      if (!budget) throw AppError.notFound("Budget");
      return db.budgetCategory.findMany({ where: { familyId, budgetId }, include: LINE_INCLUDE, orderBy: [{ category: { name: "asc" } }, { id: "asc" }] });
    },

    async findLine(familyId: string, id: string) {
      const line = await db.budgetCategory.findFirst({ where: { id, familyId }, include: LINE_INCLUDE });
      if (!line) throw AppError.notFound("Budget category");
      return line;
    },

    /** The budget of the period just before `budget` (ending the day before it starts), if there is one. */
    previousBudget(familyId: string, budget: Budget) {
      return db.budget.findFirst({ where: { familyId, endDate: dateOf(addDays(isoDateOf(budget.startDate), -1)) } });
    },

    /**
     * A new limit or rollover flag. A subcategory's new limit moves its parent's as Sure's
     * sync_parent_budgeted_spending! does: the parent becomes its subcategories' limits plus
     * whatever it had on top of them (never less). Rows are locked, parent first, so parallel
     * edits of siblings each see the other's.
     */
    async updateLine(familyId: string, id: string, changes: LineChanges) {
      const line = await repository.findLine(familyId, id);
      const newCents = changes.budgeted_spending === undefined ? undefined : centsIn(changes.budgeted_spending, line.currency, "Budgeted spending");
      await db.$transaction(async (tx) => {
        const parentId = line.category.parentId;
        const [parent] = parentId
          ? await tx.$queryRaw<{ id: string; budgeted: bigint }[]>`
              SELECT id::text AS id, budgeted_spending_cents AS budgeted FROM budget_categories
               WHERE budget_id = ${line.budgetId}::uuid AND category_id = ${parentId}::uuid FOR UPDATE`
          : [];
        const [current] = await tx.$queryRaw<{ budgeted: bigint }[]>`
          SELECT budgeted_spending_cents AS budgeted FROM budget_categories WHERE id = ${line.id}::uuid FOR UPDATE`;
        if (!current) throw AppError.notFound("Budget category");
        await tx.budgetCategory.update({
          where: { id: line.id },
          data: {
            ...(newCents !== undefined ? { budgetedSpendingCents: newCents } : {}),
            ...(changes.rollover_enabled !== undefined ? { rolloverEnabled: changes.rollover_enabled } : {}),
          },
        });
        if (parent && newCents !== undefined) {
          const [siblings] = await tx.$queryRaw<{ total: bigint }[]>`
            SELECT coalesce(sum(bc.budgeted_spending_cents), 0)::bigint AS total
              FROM budget_categories bc JOIN categories c ON c.id = bc.category_id
             WHERE bc.budget_id = ${line.budgetId}::uuid AND c.parent_id = ${parentId}::uuid AND bc.id <> ${line.id}::uuid`;
          const reserve = parent.budgeted - siblings!.total - current.budgeted;
          const parentCents = siblings!.total + newCents + (reserve > 0n ? reserve : 0n);
          await tx.budgetCategory.update({ where: { id: parent.id }, data: { budgetedSpendingCents: parentCents } });
        }
      });
    },
  };
  return repository;
}
export type BudgetRepository = ReturnType<typeof createBudgetRepository>;
