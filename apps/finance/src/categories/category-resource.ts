import type { Category } from "@hearth/contracts";
import type { CategoryRow } from "./category-repository";

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
