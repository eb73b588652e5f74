import { AppError, type Tag } from "@hearth/contracts";
import { isUniqueViolation } from "@hearth/service-kit";
import type { FinanceDb } from "../db";
import type { Tag as TagRow } from "../generated/prisma/client";
import { bumpLedgerVersion } from "../ledger/ledger-version";

export function toTagResource(row: TagRow): Tag {
  return { id: row.id, name: row.name, color: row.color, created_at: row.createdAt.toISOString(), updated_at: row.updatedAt.toISOString() };
}

const NAME_TAKEN = AppError.validation(["Name has already been taken"]);

/** Every query is scoped by the family of the verified caller. */
export function createTagRepository(db: FinanceDb) {
  return {
    list(familyId: string) {
      return db.tag.findMany({ where: { familyId }, orderBy: [{ name: "asc" }, { id: "asc" }] });
    },

    async get(familyId: string, id: string) {
      const row = await db.tag.findFirst({ where: { id, familyId } });
      if (!row) throw AppError.notFound("Tag");
      return row;
    },

    async create(familyId: string, data: { name: string; color: string }) {
      try {
        return await db.tag.create({ data: { familyId, ...data } });
      } catch (err) {
        if (isUniqueViolation(err)) throw NAME_TAKEN;
        throw err;
      }
    },

    async update(familyId: string, id: string, data: { name?: string | undefined; color?: string | undefined }) {
      try {
        const { count } = await db.tag.updateMany({ where: { id, familyId }, data: stripUndefined(data) });
        if (count === 0) throw AppError.notFound("Tag");
      } catch (err) {
        if (isUniqueViolation(err)) throw NAME_TAKEN;
        throw err;
      }
      return this.get(familyId, id);
    },

    async delete(familyId: string, id: string) {
      const { count } = await db.$transaction(async (tx) => {
        await bumpLedgerVersion(tx, familyId);
        return tx.tag.deleteMany({ where: { id, familyId } });
      });
      if (count === 0) throw AppError.notFound("Tag");
    },
  };
}

function stripUndefined<T extends object>(data: T): Partial<T> {
  return Object.fromEntries(Object.entries(data).filter(([, value]) => value !== undefined)) as Partial<T>;
}

export type TagRepository = ReturnType<typeof createTagRepository>;
