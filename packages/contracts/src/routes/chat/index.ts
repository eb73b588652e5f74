import { chatsRoutes } from "./chats";
import { messagesRoutes } from "./messages";

/** The chat service. */
export const chatRoutes = { ...chatsRoutes, ...messagesRoutes };
