import { paginationOf } from "@hearth/contracts";
import type { ActorContext, RouteHandler } from "@hearth/service-kit";
import type { ChatOwner, ChatRepository } from "./chat-repository";
import { toChatDetail, toChatSummary } from "./chat-resource";

/** The verified caller owns what they create and sees only that; never taken from the payload. */
function ownerOf(ctx: ActorContext): ChatOwner {
  return { familyId: ctx.actor.familyId, userId: ctx.actor.userId };
}

export function createChatHandlers(chats: ChatRepository) {
  const list: RouteHandler<"chats.list"> = async ({ ctx, input }) => {
    const page = { page: input.page, per_page: input.per_page };
    const { chats: rows, totalCount } = await chats.list(ownerOf(ctx), page);
    return { chats: rows.map(({ chat, stats }) => toChatSummary(chat, stats)), pagination: paginationOf(page, totalCount) };
  };
  const create: RouteHandler<"chats.create"> = async ({ ctx, input }) => toChatDetail(await chats.create(ownerOf(ctx), input));
  return { "chats.list": list, "chats.create": create };
}
