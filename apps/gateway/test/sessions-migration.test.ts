import { cp, mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import pg from "pg";
import { afterAll, beforeAll, expect, it } from "vitest";
import { applyMigrations } from "@hearth/service-kit/migrations";
import { createFreshDatabases, testPostgresAdminUrl, type FreshDatabases } from "@hearth/test-kit";
import { MIGRATIONS_DIR } from "../src/db";

// The sessions migration moves existing refresh tokens into sessions: signed-in users stay signed in.
let databases: FreshDatabases<"gateway">;
let initOnly: string;

beforeAll(async () => {
  databases = await createFreshDatabases(testPostgresAdminUrl(), ["gateway"] as const);
  initOnly = await mkdtemp(path.join(tmpdir(), "hearth-init-only-"));
  await cp(path.join(MIGRATIONS_DIR, "20261123092007_init"), path.join(initOnly, "20261123092007_init"), { recursive: true });
  await cp(path.join(MIGRATIONS_DIR, "migration_lock.toml"), path.join(initOnly, "migration_lock.toml"));
});
afterAll(async () => {
  await databases?.drop();
  await rm(initOnly, { recursive: true, force: true });
});

it("gives every existing refresh token a session carrying its device, and keeps the token", async () => {
  const url = databases.urls.gateway;
  await applyMigrations({ databaseUrl: url, migrationsDir: initOnly });
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    const userId = "01900000-0000-7000-8000-000000000001";
    await client.query("INSERT INTO users (id, email, password_hash, updated_at) VALUES ($1, 'a@example.com', 'x', now())", [userId]);
    await client.query(
      `INSERT INTO refresh_tokens (id, user_id, token_hash, device_id, device_name, device_type, expires_at)
       VALUES ('01900000-0000-7000-8000-0000000000a1', $1, 'hash-1', 'phone', 'My phone', 'ios', now() + interval '1 day')`,
      [userId],
    );

    const { applied } = await applyMigrations({ databaseUrl: url, migrationsDir: MIGRATIONS_DIR });
    expect(applied).toContain("20261123120417_sessions");

    const { rows } = await client.query(
      `SELECT t.token_hash, s.user_id, s.device_id, s.device_name, s.device_type, s.revoked_at
         FROM refresh_tokens t JOIN sessions s ON s.id = t.session_id`,
    );
    expect(rows).toEqual([{ token_hash: "hash-1", user_id: userId, device_id: "phone", device_name: "My phone", device_type: "ios", revoked_at: null }]);
  } finally {
    await client.end();
  }
});
