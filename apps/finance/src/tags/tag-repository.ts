import { AppError, type BodyOf } from "@hearth/contracts";
import type { FinanceDb } from "../db";
import type { Tag } from "../generated/prisma/client";
import { changedColumns } from "../ledger/column-changes";
import { withUniqueName } from "../ledger/unique-name";

/** A new tag with its colour chosen. */
export type NewTag = Omit<BodyOf<"tags.create">["tag"], "color"> & { color: string };
export type TagChanges = BodyOf<"tags.update">["tag"];

const CHANGE_COLUMNS = { name: "name", color: "color" } as const;

/** Every query is scoped by the family of the verified caller. */
export function createTagRepository(db: FinanceDb) {
  return {
    list(familyId: string) {
      return db.tag.findMany({ where: { familyId }, orderBy: [{ name: "asc" }, { id: "asc" }] });
    },

    async get(familyId: string, id: string): Promise<Tag> {
      const row = await db.tag.findFirst({ where: { id, familyId } });
      if (!row) throw AppError.notFound("Tag");
      return row;
    },

    create(familyId: string, input: NewTag) {
      return withUniqueName(() => db.tag.create({ data: { familyId, ...input } }));
    },

    async update(familyId: string, id: string, changes: TagChanges) {
      await withUniqueName(async () => {
        const { count } = await db.tag.updateMany({ where: { id, familyId }, data: changedColumns(changes, CHANGE_COLUMNS) });
        if (count === 0) throw AppError.notFound("Tag");
      });
      return this.get(familyId, id);
    },

    /** Its taggings go by cascade (the ledger's triggers see them go). */
    async delete(familyId: string, id: string) {
      const { count } = await db.tag.deleteMany({ where: { id, familyId } });
      if (count === 0) throw AppError.notFound("Tag");
    },
  };
}
export type TagRepository = ReturnType<typeof createTagRepository>;
