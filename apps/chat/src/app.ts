import { buildServiceRouter, createServiceServer, databaseReadiness, databaseUrlOf, type ServiceCall, type ServiceDeps } from "@hearth/service-kit";
import { createJobRunner } from "@hearth/service-kit/jobs";
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
import { createMessageRepository } from "./messages/message-repository";
import type { AskerStanding } from "./replies/asker-standing";
import { createReplyEvents } from "./replies/reply-events";
import { createReplyRepository } from "./replies/reply-repository";
import { createReplyRunner } from "./replies/reply-runner";
import { DEFAULT_REPLY_JOB, replyJob, type ReplyJobOptions } from "./replies/reply-job";
import { REPLY_QUEUE } from "./replies/reply-queue-queries";

export interface AssistantOptions {
  /** Model providers in order of preference (the first one's first model is the default); the built-in assistant always comes last. */
  providers?: readonly AssistantProvider[];
  replyTimeoutMs?: number;
  /** How many answers run at once, per instance and per family. */
  jobs?: Partial<ReplyJobOptions>;
}

export type ChatDeps = ServiceDeps<ChatDb> & {
  /** The finance service, called for the asking user by the assistant's tools. */
  finance: ServiceCall;
  /** Whether the asker still holds (the gateway's word): read when an answer starts and before each tool. */
  askerStanding: AskerStanding;
  assistant?: AssistantOptions;
  /** How the job runner polls for due jobs and beats running jobs' heartbeats (tests change them). */
  jobs?: { pollMs?: number; heartbeatMs?: number };
};

const DEFAULT_REPLY_TIMEOUT_MS = 120_000;
/** How long a stopping service lets its answers finish before it ends them as interrupted (their users may retry at once). */
const STOP_GRACE_MS = 5_000;

/** Wires the chat service by hand: repositories, the assistant, handlers, router, server. Tests start exactly this. */
export function createChatService(deps: ChatDeps) {
  const chats = createChatRepository(deps.db);
  const messages = createMessageRepository(deps.db);
  const replies = createReplyRepository(deps.db);
  const events = createReplyEvents();
  const registry = createAssistantRegistry([...(deps.assistant?.providers ?? []), createBuiltinAssistant()]);
  const timeoutMs = deps.assistant?.replyTimeoutMs ?? DEFAULT_REPLY_TIMEOUT_MS;
  const runner = createReplyRunner({ replies, registry, events, finance: deps.finance, standing: deps.askerStanding, log: deps.log, timeoutMs });
  const jobs = createJobRunner({
    databaseUrl: databaseUrlOf(deps.db),
    db: deps.db,
    log: deps.log,
    definitions: [replyJob(deps.db, replies, runner, { ...DEFAULT_REPLY_JOB, ...deps.assistant?.jobs })],
    ...deps.jobs,
  });
  const onQuestion = () => jobs.poke(REPLY_QUEUE);

  const router = buildServiceRouter(
    "chat",
    {
      ...createChatHandlers({ chats, registry, onQuestion, onChatDeleted: (chatId) => runner.abortChat(chatId) }),
      ...createMessageHandlers({ messages, registry, onQuestion }),
    },
    {
      ...createFamilyDataHandlers(createFamilyDataRepository(deps.db)),
      "messages.progress": createMessageProgressHandler(messages, events, runner),
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
    jobs,
    start: async () => jobs.start(),
    stop: () => jobs.stop({ graceMs: STOP_GRACE_MS }),
  };
}
