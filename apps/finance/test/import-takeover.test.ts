// An import whose publishing worker lost its job (its process died: here its job connection, the
// one holding the job's lock, is ended) is taken over at once by another instance, not after a
// lease; the old worker, still blocked mid-publish, then writes nothing: its rows, its progress
// and its end are rolled back, and the import ends complete with every row once.
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { databaseUrlOf } from "@hearth/service-kit";
import { IMPORT_PUBLISH_QUEUE } from "../src/imports/import-publish-queue-queries";
import { emptyImport, endJobConnection, eventually, financeAs, importPublishRunner, newActor, startFinance, type RunningFinance } from "./support";

const ROWS = 2_000;
let finance: RunningFinance;

beforeAll(async () => {
  finance = await startFinance({ jobs: { pollMs: 50, heartbeatMs: 100 } });
});
afterAll(async () => finance?.stop());

describe("a publish whose worker lost its job", () => {
  it("is taken over at once by another instance; the old worker's rows, progress and end are not kept", async () => {
    const actor = newActor();
    const call = financeAs(finance, actor);
    const account = await call("accounts.create", { account: { name: "Checking", account_type: "depository", balance: 100 } });
    const csv = ["date,amount,name", ...Array.from({ length: ROWS }, (_, i) => `2024-01-${String(1 + (i % 28)).padStart(2, "0")},-${1 + i}.00,Row ${i}`)].join(
      "\n",
    );

    // The publish writes every row, then widens the account's pending sync before it writes its end:
    // holding that sync's row keeps it there. (A sync made by hand, with no job to run it. The
    // family's ledger version is written only as the publish commits, after its end.)
    const pending = await finance.db.sync.create({ data: { familyId: actor.familyId, syncableType: "Account", syncableId: account.id } });
    const blocker = new pg.Client({ connectionString: databaseUrlOf(finance.db) });
    await blocker.connect();
    const other = importPublishRunner(finance, { heartbeatMs: 100 });
    try {
      await blocker.query("BEGIN");
      await blocker.query("SELECT 1 FROM syncs WHERE id = $1 FOR UPDATE", [pending.id]);
      const created = await call("imports.create", {
        type: "TransactionImport",
        account_id: account.id,
        raw_file_content: csv,
        publish: true,
        date_format: "%Y-%m-%d",
      });
      const importId = created.data.id as string;
      await eventually(async () => {
        const row = await finance.db.import.findUniqueOrThrow({ where: { id: importId } });
        if (row.rowsDone < ROWS) throw new Error(`${row.rowsDone} rows written so far`);
      });

      // The worker's job connection ends, as with its process: the job's lock is free.
      const endedAt = await endJobConnection(finance, (await finance.db.job.findFirstOrThrow({ where: { subjectId: importId } })).id);
      // Another instance takes it over now (its publish then waits for the same row).
      const drained = other.drain(IMPORT_PUBLISH_QUEUE);
      const job = await eventually(async () => {
        const found = await finance.db.job.findFirstOrThrow({ where: { subjectId: importId } });
        if (found.attempts < 2) throw new Error("not taken over yet");
        return found;
      });
      expect(job.startedAt!.getTime() - endedAt.getTime(), "taken over at once, not after a lease").toBeLessThan(2_000);

      await blocker.query("ROLLBACK");
      await drained;
      const [books] = await finance.db.$queryRaw<{ entries: number; names: number }[]>`
        SELECT count(*)::int AS entries, count(DISTINCT name)::int AS names FROM entries WHERE import_id = ${importId}::uuid`;
      expect(books).toEqual({ entries: ROWS, names: ROWS });
      expect(await finance.db.import.findUniqueOrThrow({ where: { id: importId } })).toMatchObject({ status: "complete", rowsDone: ROWS, error: null });
      expect(await finance.db.job.findFirstOrThrow({ where: { subjectId: importId } })).toMatchObject({ status: "succeeded", attempts: 2 });
    } finally {
      await blocker.end();
      await other.stop();
    }
  });

  it("stops between two batches when its service stops, goes back to the queue unfinished, and is published whole by the next instance", async () => {
    // The service's own runner rests: the case's runners publish.
    await finance.parts.jobs.stop();
    const actor = newActor();
    const call = financeAs(finance, actor);
    const account = await call("accounts.create", { account: { name: "Checking", account_type: "depository", balance: 100 } });
    const rows = 10_000;
    const csv = ["date,amount,name", ...Array.from({ length: rows }, (_, i) => `2024-02-${String(1 + (i % 28)).padStart(2, "0")},-${1 + i}.00,Item ${i}`)].join(
      "\n",
    );
    const created = await call("imports.create", {
      type: "TransactionImport",
      account_id: account.id,
      raw_file_content: csv,
      publish: true,
      date_format: "%Y-%m-%d",
    });
    const importId = created.data.id as string;
    const runner = () => importPublishRunner(finance, { pollMs: 50, heartbeatMs: 100 });
    const stopping = runner();
    stopping.start();
    await eventually(
      async () => {
        const row = await finance.db.import.findUniqueOrThrow({ where: { id: importId } });
        if (row.rowsDone < 1_000) throw new Error(`${row.rowsDone} rows written so far`);
      },
      { intervalMs: 5 },
    );
    await stopping.stop({ interrupt: true });
    // Stopped mid-way: nothing of it kept, the import still waiting, its attempt not counted.
    expect(await finance.db.entry.count({ where: { importId } })).toBe(0);
    expect(await finance.db.import.findUniqueOrThrow({ where: { id: importId } })).toMatchObject({ status: "importing" });
    expect(await finance.db.job.findFirstOrThrow({ where: { subjectId: importId } })).toMatchObject({ status: "queued", attempts: 0 });

    const next = runner();
    try {
      await next.drain(IMPORT_PUBLISH_QUEUE);
    } finally {
      await next.stop();
    }
    expect(await finance.db.entry.count({ where: { importId } })).toBe(rows);
    expect(await finance.db.import.findUniqueOrThrow({ where: { id: importId } })).toMatchObject({ status: "complete", rowsDone: rows });
  });

  it("is queued again when an import was left importing without a job (a deploy, a restore): the next runner to start publishes it", async () => {
    const actor = newActor();
    const created = await emptyImport(finance, actor.familyId);
    await finance.db.import.update({ where: { id: created.id }, data: { status: "importing" } });
    const starting = importPublishRunner(finance);
    starting.start();
    try {
      await eventually(async () => expect((await finance.db.import.findUniqueOrThrow({ where: { id: created.id } })).status).toBe("complete"));
    } finally {
      await starting.stop();
    }
    expect(await finance.db.job.count({ where: { subjectId: created.id } })).toBe(1);
  });
});
