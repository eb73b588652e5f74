import { defineResourceRoutes } from "../define-resource-routes";
import { ChatIdParams, ChatMessageParams, CreateMessageBodySchema, MessageResponseSchema, RetryResponseSchema, SURE_CHAT_ERRORS } from "../../resources/chats";
import { AI_READ, AI_WRITE } from "../../route-access";

export const messagesRoutes = defineResourceRoutes("chat", "messages", {
  create: {
    method: "POST",
    path: "/api/v1/chats/:chat_id/messages",
    summary: "Send a message; the assistant's answer is produced in the background (pending, then complete or failed)",
    tag: "Chat Messages",
    params: ChatIdParams,
    body: CreateMessageBodySchema,
    response: MessageResponseSchema,
    status: 201,
    access: AI_WRITE,
    sureErrors: SURE_CHAT_ERRORS,
  },
  show: {
    method: "GET",
    path: "/api/v1/chats/:chat_id/messages/:id",
    summary: "Retrieve a message (our extension): a question's ai_response_status says whether its answer is still pending, complete or failed",
    tag: "Chat Messages",
    params: ChatMessageParams,
    response: MessageResponseSchema,
    status: 200,
    access: AI_READ,
    // Our route, not Sure's: a missing chat is "Chat not found", a missing message "Message not found".
  },
  retry: {
    method: "POST",
    path: "/api/v1/chats/:chat_id/messages/retry",
    summary: "Produce the last answer again, in a new assistant message",
    tag: "Chat Messages",
    params: ChatIdParams,
    response: RetryResponseSchema,
    status: 202,
    access: AI_WRITE,
    sureErrors: SURE_CHAT_ERRORS,
  },
});
