import { defineResourceRoutes } from "../define-resource-routes";
import { PageQuerySchema } from "../../primitives";
import { ChatCollectionSchema, ChatDetailSchema, CreateChatBodySchema } from "../../resources/chats";
import { READ, WRITE } from "../../route-access";

export const chatsRoutes = defineResourceRoutes("chat", "chats", {
  list: {
    method: "GET",
    path: "/api/v1/chats",
    summary: "List chats",
    tag: "Chats",
    query: PageQuerySchema,
    response: ChatCollectionSchema,
    status: 200,
    access: READ,
  },
  create: {
    method: "POST",
    path: "/api/v1/chats",
    summary: "Create a chat",
    tag: "Chats",
    body: CreateChatBodySchema,
    response: ChatDetailSchema,
    status: 201,
    access: WRITE,
  },
});
