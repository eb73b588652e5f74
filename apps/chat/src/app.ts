import { buildServiceRouter, createServiceServer, databaseReadiness, type ServiceDeps } from "@hearth/service-kit";
import { createFamilyDataHandlers } from "./family-data/family-data-handlers";
import { createFamilyDataRepository } from "./family-data/family-data-repository";
import { createChatHandlers } from "./chats/chat-handlers";
import { createChatRepository } from "./chats/chat-repository";
import type { ChatDb } from "./db";

export type ChatDeps = ServiceDeps<ChatDb>;

/** Wires the chat service by hand: repository, handlers, router, server. Tests start exactly this. */
export function createChatService(deps: ChatDeps) {
  const router = buildServiceRouter(
    "chat",
    {
      ...createChatHandlers(createChatRepository(deps.db)),
    },
    createFamilyDataHandlers(createFamilyDataRepository(deps.db)),
  );
  const server = createServiceServer({
    service: "chat",
    router,
    log: deps.log,
    internalAuthSecret: deps.internalAuthSecret,
    readiness: databaseReadiness(deps.db),
  });
  return { router, server };
}
