import { startServiceUnderTest, type ServiceBasics, type ServiceUnderTest } from "@hearth/test-kit";
import { createChatService } from "../src/app";
import { MIGRATIONS_DIR, createChatDb, type ChatDb } from "../src/db";

export { contextOf, expectAppError, newActor } from "@hearth/test-kit";

export type RunningChat = ServiceUnderTest<ChatDb, ReturnType<typeof createChatService>>;

/** How the kit builds chat. */
export const chatUnderTest = { service: "chat", migrationsDir: MIGRATIONS_DIR, createDb: createChatDb, create: createChatService } as const;

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

/** The chat service on a fresh, migrated database, listening on a free port. */
export function startChat(): Promise<RunningChat> {
  return startServiceUnderTest(chatUnderTest);
}
