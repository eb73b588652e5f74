// Bounded per family: what a family keeps of uploaded import files (imports and its
// sessions' chunks) is bounded in all, counted under the family's lock so parallel uploads cannot
// pass it together; deleting imports makes room; another family is not held back.
import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { eventually, financeAs, newActor, startFinance, type RunningFinance } from "./support";

const csvOf = (label: string) => ["date,amount,name", ...Array.from({ length: 30 }, (_, i) => `2026-01-0${1 + (i % 9)},-1.00,${label} ${i}`)].join("\n");
/** Three uploads fit, a fourth does not, nor a session chunk beside the three. */
const SIZE = Buffer.byteLength(csvOf("Row0"), "utf8");
const BUDGET = 3 * SIZE + 50;
let finance: RunningFinance;

beforeAll(async () => {
  finance = await startFinance({ importFamilyBytes: BUDGET });
});
afterAll(async () => finance?.stop());

describe("a family's import storage", () => {
  it("stops uploads past its budget though they come at once; a deleted import makes room; other families upload on", async () => {
    const actor = newActor();
    const call = financeAs(finance, actor);
    const asked = await Promise.allSettled(
      Array.from({ length: 6 }, (_, i) => call("imports.create", { type: "TransactionImport", raw_file_content: csvOf(`Row${i}`), date_format: "%Y-%m-%d" })),
    );
    const kept = asked.filter((answer) => answer.status === "fulfilled") as PromiseFulfilledResult<{ data: { id: string } }>[];
    expect(kept).toHaveLength(3);
    for (const refused of asked.filter((answer) => answer.status === "rejected")) {
      expect((refused as PromiseRejectedResult).reason).toMatchObject({
        code: "content_too_large",
        message: `The family's imports hold too much already (at most ${BUDGET} bytes of uploaded files in all): delete imports it no longer needs.`,
      });
    }

    // An import session's chunk is counted in the same budget.
    const session = await call("importSessions.create", { expected_chunks: 1 });
    const account = randomUUID();
    const line = JSON.stringify({ type: "Account", data: { id: account, name: "Moved", balance: "1.00", currency: "USD", accountable_type: "Depository" } });
    await expect(call("importSessions.addChunk", { id: session.data.id, sequence: 1, raw_file_content: line })).rejects.toMatchObject({
      code: "content_too_large",
    });

    await call("imports.delete", { id: kept[0]!.value.data.id });
    await eventually(async () =>
      expect(await call("importSessions.addChunk", { id: session.data.id, sequence: 1, raw_file_content: line })).toMatchObject({ data: { chunks_count: 1 } }),
    );

    // Published, the session's chunks are its import's file, counted once; deleting that import
    // takes the spent session along and frees both.
    await call("importSessions.publish", { id: session.data.id });
    const { importId } = await finance.db.importSession.findUniqueOrThrow({ where: { id: session.data.id } });
    await eventually(async () => expect((await call("imports.get", { id: importId })).data.status).not.toBe("importing"));
    await call("imports.delete", { id: importId });
    await expect(call("importSessions.get", { id: session.data.id })).rejects.toMatchObject({ code: "record_not_found" });
    expect(await call("imports.create", { type: "TransactionImport", raw_file_content: csvOf("Row9"), date_format: "%Y-%m-%d" })).toMatchObject({
      data: { status: "pending" },
    });

    const other = financeAs(finance, newActor());
    expect(await other("imports.create", { type: "TransactionImport", raw_file_content: csvOf("Oth0"), date_format: "%Y-%m-%d" })).toMatchObject({
      data: { status: "pending" },
    });
  });
});

describe("deleting a session's import while the session is published again", () => {
  it("never deadlocks: the two lock the session first, then the import", async () => {
    const actor = newActor();
    const call = financeAs(finance, actor);
    for (let round = 0; round < 5; round++) {
      const session = await call("importSessions.create", { expected_chunks: 1 });
      const line = JSON.stringify({
        type: "Account",
        data: { id: randomUUID(), name: `Round ${round}`, balance: "1.00", currency: "USD", accountable_type: "Depository" },
      });
      await call("importSessions.addChunk", { id: session.data.id, sequence: 1, raw_file_content: line });
      await call("importSessions.publish", { id: session.data.id });
      const { importId } = await finance.db.importSession.findUniqueOrThrow({ where: { id: session.data.id } });
      await eventually(async () => expect((await call("imports.get", { id: importId })).data.status).not.toBe("importing"));
      // Failed: the session may be published again (its import replaced) or the import deleted (the session with it).
      await finance.db.import.update({ where: { id: importId! }, data: { status: "failed" } });
      const answers = await Promise.allSettled([
        call("imports.delete", { id: importId }),
        call("importSessions.publish", { id: session.data.id }),
        call("imports.delete", { id: importId }),
        call("importSessions.publish", { id: session.data.id }),
      ]);
      for (const answer of answers) {
        if (answer.status === "rejected") expect((answer.reason as { code?: string }).code, String(answer.reason)).toBe("record_not_found");
      }
      await eventually(async () => expect(await finance.db.import.count({ where: { familyId: actor.familyId, status: "importing" } })).toBe(0));
    }
  });
});
