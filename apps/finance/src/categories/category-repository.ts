import { AppError, pageWindow, type BodyOf, type QueryOf } from "@hearth/contracts";
import type { FinanceDb, FinanceTx } from "../db";
import type { Prisma } from "../generated/prisma/client";
import { changedColumns } from "../ledger/column-changes";
import { withUniqueName } from "../ledger/unique-name";
import { DEFAULT_CATEGORIES, DEFAULT_CATEGORY_COLOR } from "./default-categories";

const WITH_RELATIONS = { parent: { select: { id: true, name: true } }, _count: { select: { subcategories: true } } } as const;
export type CategoryRow = Prisma.CategoryGetPayload<{ include: typeof WITH_RELATIONS }>;

/** A new category with its icon chosen; colour and classification default to its parent's, read in the writing transaction. */
export type NewCategory = Omit<BodyOf<"categories.create">["category"], "icon"> & { icon: string };
export type CategoryChanges = BodyOf<"categories.update">["category"];

const CHANGE_COLUMNS = { name: "name", color: "color", icon: "icon", classification: "classification", parent_id: "parentId" } as const;

/** Every query is scoped by the family of the verified caller. */
export function createCategoryRepository(db: FinanceDb) {
  // Families known to be seeded: after the first request a family's reads cost no seeding query.
  const seeded = new Set<string>();

  async function find(tx: FinanceTx | FinanceDb, familyId: string, id: string): Promise<CategoryRow> {
    const row = await tx.category.findFirst({ where: { id, familyId }, include: WITH_RELATIONS });
    if (!row) throw AppError.notFound("Category");
    return row;
  }

  /** The parent a category may have: a top-level category of the same family, not itself. */
  async function validParent(tx: FinanceTx, familyId: string, parentId: string, selfId?: string) {
    const parent = await tx.category.findFirst({ where: { id: parentId, familyId } });
    if (!parent) throw AppError.validation(["Parent must be a category in your family"]); // Sure's words
    if (parent.id === selfId) throw AppError.validation(["A category cannot be its own parent"]);
    if (parent.parentId) throw AppError.validation(["Categories nest two levels at most: the parent must be a top-level category"]);
    return parent;
  }

  return {
    /** Seeds the defaults once per family (a family that deleted them all does not get them back). */
    async ensureDefaults(familyId: string): Promise<void> {
      if (seeded.has(familyId)) return;
      if (await db.categoryDefaultsSeeded.findUnique({ where: { familyId }, select: { familyId: true } })) {
        seeded.add(familyId);
        return;
      }
      await db.$transaction(async (tx) => {
        const { count } = await tx.categoryDefaultsSeeded.createMany({ data: [{ familyId }], skipDuplicates: true });
        if (count === 0) return;
        for (const category of DEFAULT_CATEGORIES) {
          const { subcategories = [], ...fields } = category;
          // A family may already hold a category of this name (made before its first list): keep theirs.
          const existing = await tx.category.findUnique({ where: { familyId_name: { familyId, name: fields.name } } });
          const parent = existing ?? (await tx.category.create({ data: { familyId, ...fields } }));
          await tx.category.createMany({
            data: subcategories.map((sub) => ({ familyId, ...sub, color: parent.color, classification: parent.classification, parentId: parent.id })),
            skipDuplicates: true,
          });
        }
      });
      seeded.add(familyId);
    },

    async list(familyId: string, query: QueryOf<"categories.list">) {
      const where: Prisma.CategoryWhereInput = {
        familyId,
        ...(query.roots_only ? { parentId: null } : {}),
        ...(query.parent_id ? { parentId: query.parent_id } : {}),
      };
      const [rows, total] = await db.$transaction([
        db.category.findMany({
          where,
          include: WITH_RELATIONS,
          orderBy: [{ name: "asc" }, { id: "asc" }],
          ...pageWindow(query),
        }),
        db.category.count({ where }),
      ]);
      return { rows, total };
    },

    get(familyId: string, id: string) {
      return find(db, familyId, id);
    },

    /** A subcategory takes its parent's colour and classification unless given its own. */
    create(familyId: string, input: NewCategory) {
      return withUniqueName(() =>
        db.$transaction(async (tx) => {
          const parent = input.parent_id ? await validParent(tx, familyId, input.parent_id) : null;
          const created = await tx.category.create({
            data: {
              familyId,
              name: input.name,
              color: input.color ?? parent?.color ?? DEFAULT_CATEGORY_COLOR,
              icon: input.icon,
              classification: input.classification ?? parent?.classification ?? "expense",
              parentId: parent?.id ?? null,
            },
          });
          return find(tx, familyId, created.id);
        }),
      );
    },

    update(familyId: string, id: string, changes: CategoryChanges) {
      return withUniqueName(() =>
        db.$transaction(async (tx) => {
          const current = await find(tx, familyId, id);
          if (changes.parent_id) {
            await validParent(tx, familyId, changes.parent_id, id);
            if (current._count.subcategories > 0) throw AppError.validation(["A category with subcategories cannot become a subcategory"]);
          }
          await tx.category.update({ where: { id }, data: changedColumns(changes, CHANGE_COLUMNS) });
          return find(tx, familyId, id);
        }),
      );
    },

    /**
     * Its subcategories become top-level and its transactions uncategorised (the foreign keys set
     * both to null: the ledger's triggers see the entries change).
     */
    async delete(familyId: string, id: string) {
      const { count } = await db.category.deleteMany({ where: { id, familyId } });
      if (count === 0) throw AppError.notFound("Category");
    },
  };
}
export type CategoryRepository = ReturnType<typeof createCategoryRepository>;
