import { defineResourceRoutes } from "../define-resource-routes";
import { PageQuerySchema } from "../../primitives";
import {
  ChatCollectionSchema,
  ChatDetailSchema,
  ChatMessagesQuerySchema,
  CreateChatBodySchema,
  SURE_CHAT_ERRORS,
  UpdateChatBodySchema,
} from "../../resources/chats";
import { AI_READ, AI_WRITE, IdParams } from "../../route-access";

export const chatsRoutes = defineResourceRoutes("chat", "chats", {
  list: {
    method: "GET",
    path: "/api/v1/chats",
    summary: "List chats",
    tag: "Chats",
    query: PageQuerySchema,
    response: ChatCollectionSchema,
    status: 200,
    access: AI_READ,
  },
  create: {
    method: "POST",
    path: "/api/v1/chats",
    summary: "Create a chat, optionally with its first message (answered in the background)",
    tag: "Chats",
    body: CreateChatBodySchema,
    response: ChatDetailSchema,
    status: 201,
    access: AI_WRITE,
  },
  show: {
    method: "GET",
    path: "/api/v1/chats/:id",
    summary: "Retrieve a chat with a page of its messages, oldest first",
    tag: "Chats",
    params: IdParams,
    query: ChatMessagesQuerySchema,
    response: ChatDetailSchema,
    status: 200,
    access: AI_READ,
    sureErrors: SURE_CHAT_ERRORS,
  },
  update: {
    method: "PATCH",
    path: "/api/v1/chats/:id",
    summary: "Rename a chat",
    tag: "Chats",
    params: IdParams,
    body: UpdateChatBodySchema,
    response: ChatDetailSchema,
    status: 200,
    access: AI_WRITE,
    sureErrors: SURE_CHAT_ERRORS,
  },
  destroy: {
    method: "DELETE",
    path: "/api/v1/chats/:id",
    summary: "Delete a chat and its messages (an answer being produced is abandoned)",
    tag: "Chats",
    params: IdParams,
    response: null,
    status: 204,
    access: AI_WRITE,
    sureErrors: SURE_CHAT_ERRORS,
  },
});
