// Bounded per family: an import session left unpublished is deleted a week after its
// last chunk, its chunks and its unfinished import with it; a published one, or one still being
// filled, stays.
import { randomUUID } from "node:crypto";
import pino from "pino";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { databaseUrlOf } from "@hearth/service-kit";
import { createJobRunner } from "@hearth/service-kit/jobs";
import { importSessionExpiryJob } from "../src/imports/sessions/import-session-expiry";
import { eventually, financeAs, newActor, startFinance, type RunningFinance } from "./support";

let finance: RunningFinance;

beforeAll(async () => {
  finance = await startFinance();
});
afterAll(async () => finance?.stop());

const accountLine = (name: string) =>
  JSON.stringify({ type: "Account", data: { id: randomUUID(), name, balance: "1.00", currency: "USD", accountable_type: "Depository" } });

describe("an import session left unpublished", () => {
  it("is deleted with its chunks a week after its last change; a published or recent one stays", async () => {
    const call = financeAs(finance, newActor());
    const sessionWith = async (name: string) => {
      const session = await call("importSessions.create", { expected_chunks: 1 });
      await call("importSessions.addChunk", { id: session.data.id, sequence: 1, raw_file_content: accountLine(name) });
      return session.data.id as string;
    };
    const abandoned = await sessionWith("Abandoned");
    const recent = await sessionWith("Recent");
    const published = await sessionWith("Published");
    await call("importSessions.publish", { id: published });
    await eventually(async () => expect((await call("importSessions.get", { id: published })).data.status).toBe("complete"));
    const weekAgo = new Date(Date.now() - 8 * 86_400_000);
    await finance.db.importSession.updateMany({ where: { id: { in: [abandoned, published] } }, data: { updatedAt: weekAgo } });

    // The next runner to start (or every ten minutes) queues and runs their expiry.
    const runner = createJobRunner({
      databaseUrl: databaseUrlOf(finance.db),
      db: finance.db,
      log: pino({ level: "silent" }),
      definitions: [importSessionExpiryJob(finance.db)],
    });
    runner.start();
    try {
      await eventually(async () => expect(await finance.db.importSession.count({ where: { id: abandoned } })).toBe(0));
    } finally {
      await runner.stop();
    }
    expect(await finance.db.importSessionChunk.count({ where: { sessionId: abandoned } })).toBe(0);
    expect(await finance.db.importSession.count({ where: { id: { in: [recent, published] } } })).toBe(2);
  });
});
