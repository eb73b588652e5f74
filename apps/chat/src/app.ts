import { buildServiceRouter, createServiceServer, databaseReadiness, type ServiceCall, type ServiceDeps } from "@hearth/service-kit";
import { createAssistantRegistry } from "./assistant/assistant-registry";
import { createAssistantToolProcedures } from "./assistant/tool-procedures";
import type { AssistantProvider } from "./assistant/assistant-types";
import { createBuiltinAssistant } from "./assistant/builtin";
import { createChatHandlers } from "./chats/chat-handlers";
import { createChatRepository } from "./chats/chat-repository";
import type { ChatDb } from "./db";
import { createFamilyDataHandlers } from "./family-data/family-data-handlers";
import { createFamilyDataRepository } from "./family-data/family-data-repository";
import { createMessageHandlers } from "./messages/message-handlers";
import { createMessageProgressHandler } from "./messages/message-progress";
import { createReplyEvents } from "./replies/reply-events";
import { createReplyRepository } from "./replies/reply-repository";
import { createReplyRunner } from "./replies/reply-runner";
import { DEFAULT_REPLY_WORKER, createReplyWorker, type ReplyWorkerOptions } from "./replies/reply-worker";

export interface AssistantOptions {
  /** Model providers in order of preference (the first one's first model is the default); the built-in assistant always comes last. */
  providers?: readonly AssistantProvider[];
  replyTimeoutMs?: number;
  worker?: Partial<Omit<ReplyWorkerOptions, "leaseMs">>;
}

export type ChatDeps = ServiceDeps<ChatDb> & {
  /** The finance service, called for the asking user by the assistant's tools. */
  finance: ServiceCall;
  assistant?: AssistantOptions;
};

const DEFAULT_REPLY_TIMEOUT_MS = 120_000;
/** A claim outlives its answer's timeout by this much, so only a dead worker's claim runs out. */
const LEASE_MARGIN_MS = 30_000;

/** Wires the chat service by hand: repositories, the assistant, handlers, router, server. Tests start exactly this. */
export function createChatService(deps: ChatDeps) {
  const chats = createChatRepository(deps.db);
  const replies = createReplyRepository(deps.db);
  const events = createReplyEvents();
  const registry = createAssistantRegistry([...(deps.assistant?.providers ?? []), createBuiltinAssistant()]);
  const timeoutMs = deps.assistant?.replyTimeoutMs ?? DEFAULT_REPLY_TIMEOUT_MS;
  const runner = createReplyRunner({ replies, registry, events, finance: deps.finance, log: deps.log, timeoutMs });
  const worker = createReplyWorker({
    replies,
    runner,
    log: deps.log,
    options: { ...DEFAULT_REPLY_WORKER, ...deps.assistant?.worker, leaseMs: timeoutMs + LEASE_MARGIN_MS },
  });
  const onQuestion = () => worker.poke();

  const router = buildServiceRouter(
    "chat",
    {
      ...createChatHandlers({ chats, registry, onQuestion, onChatDeleted: (chatId) => runner.abortChat(chatId) }),
      ...createMessageHandlers({ chats, registry, onQuestion }),
    },
    {
      ...createFamilyDataHandlers(createFamilyDataRepository(deps.db)),
      "messages.progress": createMessageProgressHandler(deps.db, events, runner),
      ...createAssistantToolProcedures(deps.finance),
    },
  );
  const server = createServiceServer({
    service: "chat",
    router,
    log: deps.log,
    internalAuthSecret: deps.internalAuthSecret,
    readiness: databaseReadiness(deps.db),
  });
  return {
    router,
    server,
    registry,
    events,
    worker,
    start: async () => worker.start(),
    stop: () => worker.stop(),
  };
}
