// The pool under every service's Prisma client: its sessions talk UTC whatever the database's
// default (the driver adapter sends a Date as UTC wall-clock time without an offset, so leases
// compared by value would miss elsewhere), and a connection the server ends under a holder does
// not end the process.
import { afterAll, describe, expect, it } from "vitest";
import { ensureDatabase } from "../src/migrations/ensure-database";
import { createPrismaClient, pgPoolOf } from "../src/prisma";
import { cleanup, freshDatabaseUrl, query } from "./migrations/helpers";

afterAll(cleanup);

/** Enough of a Prisma client class for the pool: the adapter is built and never used. */
class BareClient {
  constructor(readonly options: unknown) {}
}

describe("createPrismaClient's sessions", () => {
  it("are in UTC on a database whose default zone is another", async () => {
    const url = freshDatabaseUrl();
    await ensureDatabase(url);
    const name = new URL(url).pathname.slice(1);
    await query(url, `ALTER DATABASE "${name}" SET timezone = 'Europe/Berlin'`);
    expect((await query<{ TimeZone: string }>(url, "SHOW TimeZone"))[0]!.TimeZone).toBe("Europe/Berlin");
    const pool = pgPoolOf(createPrismaClient(BareClient, url, 1));
    try {
      expect((await pool.query<{ TimeZone: string }>("SHOW TimeZone")).rows[0]!.TimeZone).toBe("UTC");
      // A wall-clock time without an offset, as the adapter sends a Date, read as that instant in UTC.
      expect((await pool.query<{ at: Date }>("SELECT '2026-10-25 01:30:00'::timestamptz AS at")).rows[0]!.at.toISOString()).toBe("2026-10-25T01:30:00.000Z");
    } finally {
      await pool.end();
    }
  });

  it("survive the server ending a connection while it is checked out (was: an unhandled 'error' event ended the process)", async () => {
    const url = freshDatabaseUrl();
    await ensureDatabase(url);
    const pool = pgPoolOf(createPrismaClient(BareClient, url, 2));
    try {
      const held = await pool.connect();
      const pid = (await held.query<{ pid: number }>("SELECT pg_backend_pid() AS pid")).rows[0]!.pid;
      await query(url, `SELECT pg_terminate_backend(${pid})`);
      await new Promise((resolve) => setTimeout(resolve, 200));
      await expect(held.query("SELECT 1")).rejects.toThrow();
      held.release();
      expect((await pool.query<{ one: number }>("SELECT 1 AS one")).rows[0]!.one).toBe(1);
    } finally {
      await pool.end();
    }
  });
});
