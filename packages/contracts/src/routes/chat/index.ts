import { chatsRoutes } from "./chats";

/** The chat service. */
export const chatRoutes = { ...chatsRoutes };
