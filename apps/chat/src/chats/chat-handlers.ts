import { paginationOf } from "@hearth/contracts";
import type { ActorContext, RouteHandler } from "@hearth/service-kit";
import type { AssistantRegistry } from "../assistant/assistant-registry";
import type { ChatOwner, ChatRepository } from "./chat-repository";
import { toChatDetail, toChatSummary } from "./chat-resource";

/** The verified caller owns what they create and sees only that; never taken from the payload. */
export function ownerOf(ctx: ActorContext): ChatOwner {
  return { familyId: ctx.actor.familyId, userId: ctx.actor.userId };
}

export function askedByOf(ctx: ActorContext) {
  return { actor: ctx.actor, requestId: ctx.requestId };
}

export interface ChatHandlerDeps {
  chats: ChatRepository;
  registry: AssistantRegistry;
  /** A question was queued: start on its answer now. */
  onQuestion: () => void;
  /** A chat was deleted: stop its answers in progress. */
  onChatDeleted: (chatId: string) => void;
}

export function createChatHandlers({ chats, registry, onQuestion, onChatDeleted }: ChatHandlerDeps) {
  const list: RouteHandler<"chats.list"> = async ({ ctx, input }) => {
    const page = { page: input.page, per_page: input.per_page };
    const { chats: rows, totalCount } = await chats.list(ownerOf(ctx), page);
    return { chats: rows.map(({ chat, stats }) => toChatSummary(chat, stats)), pagination: paginationOf(page, totalCount) };
  };
  const create: RouteHandler<"chats.create"> = async ({ ctx, input }) => {
    // The model is checked even without a message, as it would be for the first question.
    const model = registry.resolve(input.model);
    const question = input.message === undefined ? undefined : { content: input.message, model, askedBy: askedByOf(ctx) };
    const { messages, ...chat } = await chats.create(ownerOf(ctx), input, question);
    if (question) onQuestion();
    return toChatDetail(chat, messages);
  };
  const show: RouteHandler<"chats.show"> = async ({ ctx, input }) => {
    const query = { page: input.page, per_page: input.per_page };
    const { chat, messages, totalCount } = await chats.show(ownerOf(ctx), input.id, query);
    return toChatDetail(chat, messages, { query, totalCount });
  };
  const update: RouteHandler<"chats.update"> = async ({ ctx, input }) => {
    await chats.rename(ownerOf(ctx), input.id, input.title);
    const query = { page: 1, per_page: 50 };
    const { chat, messages, totalCount } = await chats.show(ownerOf(ctx), input.id, query);
    return toChatDetail(chat, messages, { query, totalCount });
  };
  const destroy: RouteHandler<"chats.destroy"> = async ({ ctx, input }) => {
    await chats.destroy(ownerOf(ctx), input.id);
    onChatDeleted(input.id);
  };
  return { "chats.list": list, "chats.create": create, "chats.show": show, "chats.update": update, "chats.destroy": destroy };
}
