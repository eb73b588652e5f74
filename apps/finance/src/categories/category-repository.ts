import { AppError, pageWindow, paginationOf, type Category, type PageQuery } from "@hearth/contracts";
import { isUniqueViolation } from "@hearth/service-kit";
import type { FinanceDb } from "../db";
import type { Prisma } from "../generated/prisma/client";
import { DEFAULT_CATEGORIES, DEFAULT_CATEGORY_COLOR, suggestIcon } from "./default-categories";
import { bumpLedgerVersion } from "../ledger/ledger-version";

type Tx = Prisma.TransactionClient;
type Classification = "income" | "expense";

const WITH_RELATIONS = { parent: { select: { id: true, name: true } }, _count: { select: { subcategories: true } } } as const;
type CategoryRow = Prisma.CategoryGetPayload<{ include: typeof WITH_RELATIONS }>;

export function toCategoryResource(row: CategoryRow): Category {
  return {
    id: row.id,
    name: row.name,
    color: row.color,
    icon: row.icon,
    classification: row.classification,
    parent: row.parent,
    subcategories_count: row._count.subcategories,
    created_at: row.createdAt.toISOString(),
    updated_at: row.updatedAt.toISOString(),
  };
}

const NAME_TAKEN = AppError.validation(["Name has already been taken"]);

export interface CategoryInput {
  name?: string | undefined;
  color?: string | undefined;
  icon?: string | undefined;
  parent_id?: string | null | undefined;
  classification?: Classification | undefined;
}

/** Every query is scoped by the family of the verified caller; a family gets the default set on first use. */
export function createCategoryRepository(db: FinanceDb) {
  // Families known to be seeded: after the first request a family's reads cost no seeding query.
  const seeded = new Set<string>();

  /** Seeds the defaults once per family (a family that deleted them all does not get them back). */
  async function ensureDefaults(familyId: string): Promise<void> {
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
  }

  async function find(tx: Tx | FinanceDb, familyId: string, id: string): Promise<CategoryRow> {
    const row = await tx.category.findFirst({ where: { id, familyId }, include: WITH_RELATIONS });
    if (!row) throw AppError.notFound("Category");
    return row;
  }

  /** The parent a category may have: a top-level category of the same family, not itself. */
  async function validParent(tx: Tx, familyId: string, parentId: string, selfId?: string) {
    const parent = await tx.category.findFirst({ where: { id: parentId, familyId } });
    if (!parent) throw AppError.validation(["Parent category not found"]);
    if (parent.id === selfId) throw AppError.validation(["A category cannot be its own parent"]);
    if (parent.parentId) throw AppError.validation(["Categories nest two levels at most: the parent must be a top-level category"]);
    return parent;
  }

  async function unique<T>(write: () => Promise<T>): Promise<T> {
    try {
      return await write();
    } catch (err) {
      if (isUniqueViolation(err)) throw NAME_TAKEN;
      throw err;
    }
  }

  return {
    async list(familyId: string, query: PageQuery & { roots_only?: boolean | undefined; parent_id?: string | undefined }) {
      await ensureDefaults(familyId);
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
      return { categories: rows.map(toCategoryResource), pagination: paginationOf(query, total) };
    },

    async get(familyId: string, id: string) {
      await ensureDefaults(familyId);
      return toCategoryResource(await find(db, familyId, id));
    },

    /** A subcategory takes its parent's colour and classification unless given its own. */
    async create(familyId: string, input: CategoryInput & { name: string }) {
      await ensureDefaults(familyId);
      const row = await unique(() =>
        db.$transaction(async (tx) => {
          const parent = input.parent_id ? await validParent(tx, familyId, input.parent_id) : null;
          const created = await tx.category.create({
            data: {
              familyId,
              name: input.name,
              color: input.color ?? parent?.color ?? DEFAULT_CATEGORY_COLOR,
              icon: input.icon ?? suggestIcon(input.name),
              classification: input.classification ?? parent?.classification ?? "expense",
              parentId: parent?.id ?? null,
            },
          });
          return find(tx, familyId, created.id);
        }),
      );
      return toCategoryResource(row);
    },

    async update(familyId: string, id: string, input: CategoryInput) {
      const row = await unique(() =>
        db.$transaction(async (tx) => {
          const current = await find(tx, familyId, id);
          if (input.parent_id) {
            await validParent(tx, familyId, input.parent_id, id);
            if (current._count.subcategories > 0) throw AppError.validation(["A category with subcategories cannot become a subcategory"]);
          }
          await tx.category.update({
            where: { id },
            data: {
              ...(input.name !== undefined ? { name: input.name } : {}),
              ...(input.color !== undefined ? { color: input.color } : {}),
              ...(input.icon !== undefined ? { icon: input.icon } : {}),
              ...(input.classification !== undefined ? { classification: input.classification } : {}),
              ...(input.parent_id !== undefined ? { parentId: input.parent_id } : {}),
            },
          });
          return find(tx, familyId, id);
        }),
      );
      return toCategoryResource(row);
    },

    /** Its subcategories become top-level (the foreign key sets their parent to null). */
    async delete(familyId: string, id: string) {
      // Its transactions lose the category: filtered totals change.
      const { count } = await db.$transaction(async (tx) => {
        await bumpLedgerVersion(tx, familyId);
        return tx.category.deleteMany({ where: { id, familyId } });
      });
      if (count === 0) throw AppError.notFound("Category");
    },
  };
}
export type CategoryRepository = ReturnType<typeof createCategoryRepository>;
