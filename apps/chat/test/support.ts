import { startServiceUnderTest, type ServiceUnderTest } from "@hearth/test-kit";
import { createChatService } from "../src/app";
import { MIGRATIONS_DIR, createChatDb, type ChatDb } from "../src/db";

export { contextOf, expectAppError, newActor } from "@hearth/test-kit";

export type RunningChat = ServiceUnderTest<ChatDb, ReturnType<typeof createChatService>>;

/** The chat service on a fresh, migrated database, listening on a free port. */
export function startChat(): Promise<RunningChat> {
  return startServiceUnderTest({ service: "chat", migrationsDir: MIGRATIONS_DIR, createDb: createChatDb, create: createChatService });
}
