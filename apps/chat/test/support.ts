import { createServiceClient } from "@hearth/service-kit";
import { startServiceUnderTest, type ServiceBasics, type ServiceUnderTest } from "@hearth/test-kit";
import { createChatService, type ChatDeps } from "../src/app";
import { MIGRATIONS_DIR, createChatDb, type ChatDb } from "../src/db";
import type { AskerStanding } from "../src/replies/asker-standing";

export { contextOf, expectAppError, newActor } from "@hearth/test-kit";

export type RunningChat = ServiceUnderTest<ChatDb, ReturnType<typeof createChatService>>;

/**
 * Chat on its own: its finance is an address nothing listens on (port 9, discard), so an answer
 * that needs the family's data fails as it would with finance down. Tests of whole answers run
 * the real finance (system tests, assistant-tools.test.ts).
 */
/** An asker who still holds as they asked (the gateway's check is tested through it, in the system tests). */
export const askedAsTheyStand: AskerStanding = async (actor) => ({ granted: true, reason: null, role: actor.role, scopes: actor.scopes, ai_enabled: true });

export function createChatAlone(deps: Omit<ChatDeps, "finance" | "askerStanding">, assistant?: ChatDeps["assistant"]) {
  const finance = createServiceClient({
    service: "finance",
    url: "http://127.0.0.1:9",
    caller: "chat",
    internalAuthSecret: deps.internalAuthSecret,
    timeoutMs: 2000,
  });
  return createChatService({ ...deps, finance, askerStanding: askedAsTheyStand, ...(assistant && { assistant }) });
}

/** How the kit builds chat. */
export const chatUnderTest = {
  service: "chat",
  migrationsDir: MIGRATIONS_DIR,
  createDb: createChatDb,
  create: (deps: Omit<ChatDeps, "finance" | "askerStanding">) => createChatAlone(deps),
} as const;

/** What the kit's shared health and internal-auth suites call on chat. */
export const chatBasics: ServiceBasics<ChatDb, RunningChat["parts"]> = {
  ...chatUnderTest,
  procedures: [
    { procedure: "chats.list", input: () => ({}), answer: { toMatchObject: { chats: [], pagination: { total_count: 0 } } } },
    {
      procedure: "chats.create",
      input: () => ({ title: "Hello" }),
      answer: { toMatchObject: { title: "Hello", messages: [] } },
      refusesReadOnlyKey: "insufficient_scope",
    },
  ],
  countRows: (db) => db.chat.count(),
};

/** The chat service on a fresh, migrated database, listening on a free port (`assistant` e.g. to hold answers back). */
export function startChat(assistant?: ChatDeps["assistant"]): Promise<RunningChat> {
  return startServiceUnderTest({ ...chatUnderTest, create: (deps: Omit<ChatDeps, "finance" | "askerStanding">) => createChatAlone(deps, assistant) });
}

/** A service that takes no answer: questions stay pending, for tests of what is stored (or of runners of their own). */
export const NO_ANSWERS: ChatDeps["assistant"] = { jobs: { concurrency: 0 } };
