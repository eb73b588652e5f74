import type { RouteHandler } from "@hearth/service-kit";
import { pickTagColor } from "./tag-colors";
import type { TagRepository } from "./tag-repository";
import { toTagResource } from "./tag-resource";

/** Thin procedure bodies: take the verified family and the validated input, call the repository. */
export function createTagHandlers(tags: TagRepository) {
  const list: RouteHandler<"tags.list"> = async ({ ctx }) => (await tags.list(ctx.actor.familyId)).map(toTagResource);
  const get: RouteHandler<"tags.get"> = async ({ ctx, input }) => toTagResource(await tags.get(ctx.actor.familyId, input.id));
  /** A tag made without a colour gets one of Sure's palette. */
  const create: RouteHandler<"tags.create"> = async ({ ctx, input }) =>
    toTagResource(await tags.create(ctx.actor.familyId, { ...input.tag, color: input.tag.color ?? pickTagColor() }));
  const update: RouteHandler<"tags.update"> = async ({ ctx, input }) => toTagResource(await tags.update(ctx.actor.familyId, input.id, input.tag));
  const remove: RouteHandler<"tags.delete"> = async ({ ctx, input }) => tags.delete(ctx.actor.familyId, input.id);
  return { "tags.list": list, "tags.get": get, "tags.create": create, "tags.update": update, "tags.delete": remove };
}
