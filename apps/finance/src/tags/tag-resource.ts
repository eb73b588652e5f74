import type { Tag } from "@hearth/contracts";
import type { Tag as TagRow } from "../generated/prisma/client";

export function toTagResource(row: TagRow): Tag {
  return { id: row.id, name: row.name, color: row.color, created_at: row.createdAt.toISOString(), updated_at: row.updatedAt.toISOString() };
}
