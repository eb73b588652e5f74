import type { RouteHandler } from "@hearth/service-kit";
import type { CategoryRepository } from "./category-repository";

/** Thin procedure bodies: the verified family and the validated input go to the repository. */
export function createCategoryHandlers(categories: CategoryRepository) {
  const list: RouteHandler<"categories.list"> = async ({ ctx, input }) => categories.list(ctx.actor.familyId, input);
  const get: RouteHandler<"categories.get"> = async ({ ctx, input }) => categories.get(ctx.actor.familyId, input.id);
  const create: RouteHandler<"categories.create"> = async ({ ctx, input }) => categories.create(ctx.actor.familyId, input.category);
  const update: RouteHandler<"categories.update"> = async ({ ctx, input }) => categories.update(ctx.actor.familyId, input.id, input.category);
  const remove: RouteHandler<"categories.delete"> = async ({ ctx, input }) => categories.delete(ctx.actor.familyId, input.id);
  return { "categories.list": list, "categories.get": get, "categories.create": create, "categories.update": update, "categories.delete": remove };
}
