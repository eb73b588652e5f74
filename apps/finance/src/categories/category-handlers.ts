import { paginationOf } from "@hearth/contracts";
import type { RouteHandler } from "@hearth/service-kit";
import type { CategoryRepository } from "./category-repository";
import { toCategoryResource } from "./category-resource";
import { suggestIcon } from "./default-categories";

/** A family gets the default set the first time it lists, reads or creates categories. */
export function createCategoryHandlers(categories: CategoryRepository) {
  const list: RouteHandler<"categories.list"> = async ({ ctx, input }) => {
    await categories.ensureDefaults(ctx.actor.familyId);
    const { rows, total } = await categories.list(ctx.actor.familyId, input);
    return { categories: rows.map(toCategoryResource), pagination: paginationOf(input, total) };
  };
  const get: RouteHandler<"categories.get"> = async ({ ctx, input }) => {
    await categories.ensureDefaults(ctx.actor.familyId);
    return toCategoryResource(await categories.get(ctx.actor.familyId, input.id));
  };
  /** Sure suggests an icon from the name when none is given. */
  const create: RouteHandler<"categories.create"> = async ({ ctx, input }) => {
    await categories.ensureDefaults(ctx.actor.familyId);
    const { icon, ...category } = input.category;
    return toCategoryResource(await categories.create(ctx.actor.familyId, { ...category, icon: icon ?? suggestIcon(category.name) }));
  };
  const update: RouteHandler<"categories.update"> = async ({ ctx, input }) =>
    toCategoryResource(await categories.update(ctx.actor.familyId, input.id, input.category));
  const remove: RouteHandler<"categories.delete"> = async ({ ctx, input }) => categories.delete(ctx.actor.familyId, input.id);
  return { "categories.list": list, "categories.get": get, "categories.create": create, "categories.update": update, "categories.delete": remove };
}
