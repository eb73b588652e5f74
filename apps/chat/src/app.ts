import type { Logger } from "@hearth/service-kit";
import { buildServiceRouter, createServiceServer } from "@hearth/service-kit";
import { createChatHandlers } from "./chats/chat-handlers";
import { createChatRepository } from "./chats/chat-repository";
import type { ChatDb } from "./db";

export interface ChatDeps {
  db: ChatDb;
  log: Logger;
  internalAuthSecret: string;
}

/** Wires the chat service by hand: repository, handlers, router, server. Tests start exactly this. */
export function createChatService(deps: ChatDeps) {
  const router = buildServiceRouter("chat", {
    ...createChatHandlers(createChatRepository(deps.db)),
  });
  const server = createServiceServer({
    service: "chat",
    router,
    log: deps.log,
    internalAuthSecret: deps.internalAuthSecret,
    readiness: async () => {
      await deps.db.$queryRaw`SELECT 1`;
    },
  });
  return { router, server };
}
