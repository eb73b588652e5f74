import type { RouteHandler } from "@hearth/service-kit";
import type { AssistantRegistry } from "../assistant/assistant-registry";
import { askedByOf, ownerOf } from "../chats/chat-handlers";
import type { MessageRepository } from "./message-repository";
import { toMessageResponse } from "./message-resource";

export function createMessageHandlers({
  messages,
  registry,
  onQuestion,
}: {
  messages: MessageRepository;
  registry: AssistantRegistry;
  onQuestion: () => void;
}) {
  const create: RouteHandler<"messages.create"> = async ({ ctx, input }) => {
    const model = registry.resolve(input.model);
    const message = await messages.ask(ownerOf(ctx), input.chat_id, { content: input.content, model, askedBy: askedByOf(ctx) });
    onQuestion();
    return toMessageResponse(message);
  };
  const show: RouteHandler<"messages.show"> = async ({ ctx, input }) => {
    const { message, error } = await messages.message(ownerOf(ctx), input.chat_id, input.id);
    return toMessageResponse(message, error);
  };
  const retry: RouteHandler<"messages.retry"> = async ({ ctx, input }) => {
    const retried = await messages.retry(ownerOf(ctx), input.chat_id, askedByOf(ctx));
    onQuestion();
    return { message: "Retry initiated", message_id: retried.id };
  };
  return { "messages.create": create, "messages.show": show, "messages.retry": retry };
}
