import type { RouteHandler } from "@hearth/service-kit";
import type { AssistantRegistry } from "../assistant/assistant-registry";
import { askedByOf, ownerOf } from "../chats/chat-handlers";
import type { ChatRepository } from "../chats/chat-repository";
import { toMessageResponse } from "../chats/chat-resource";

export function createMessageHandlers({ chats, registry, onQuestion }: { chats: ChatRepository; registry: AssistantRegistry; onQuestion: () => void }) {
  const create: RouteHandler<"messages.create"> = async ({ ctx, input }) => {
    const model = registry.resolve(input.model);
    const message = await chats.ask(ownerOf(ctx), input.chat_id, { content: input.content, model, askedBy: askedByOf(ctx) });
    onQuestion();
    return toMessageResponse(message);
  };
  const show: RouteHandler<"messages.show"> = async ({ ctx, input }) => {
    const { message, error } = await chats.message(ownerOf(ctx), input.chat_id, input.id);
    return toMessageResponse(message, error);
  };
  const retry: RouteHandler<"messages.retry"> = async ({ ctx, input }) => {
    const retried = await chats.retry(ownerOf(ctx), input.chat_id, askedByOf(ctx));
    onQuestion();
    return { message: "Retry initiated", message_id: retried.id };
  };
  return { "messages.create": create, "messages.show": show, "messages.retry": retry };
}
