// The shared purge batch loop: batches until one comes back short, giving way to locks and the
// deadline, shrinking a batch too slow for its statement timeout (PostgreSQL's codes as pg reports them).
import { describe, expect, it } from "vitest";
import { deleteInShrinkingBatches } from "../src/workers/purge-batches";

const pgError = (code: string) => Object.assign(new Error(code), { code });
const FAR = () => Date.now() + 60_000;

describe("deleteInShrinkingBatches", () => {
  it("deletes batch after batch until one comes back short", async () => {
    const left = { rows: 25 };
    const sizes: number[] = [];
    const step = await deleteInShrinkingBatches(
      async (size) => {
        sizes.push(size);
        const gone = Math.min(size, left.rows);
        left.rows -= gone;
        return gone;
      },
      { batchSize: 10, deadline: FAR() },
    );
    expect(step).toEqual({ finished: true, deleted: 25 });
    expect(sizes).toEqual([10, 10, 10]);
  });

  it("retries a batch too slow for its statement timeout a tenth the size, down to one row, then fails", async () => {
    const sizes: number[] = [];
    const slowAbove = 1;
    const step = await deleteInShrinkingBatches(
      async (size) => {
        sizes.push(size);
        if (size > slowAbove) throw pgError("57014");
        return sizes.filter((each) => each === 1).length <= 3 ? 1 : 0;
      },
      { batchSize: 100, deadline: FAR() },
    );
    expect(sizes.slice(0, 3)).toEqual([100, 10, 1]);
    expect(step).toEqual({ finished: true, deleted: 3 });
    await expect(deleteInShrinkingBatches(async () => Promise.reject(pgError("57014")), { batchSize: 100, deadline: FAR() })).rejects.toMatchObject({
      code: "57014",
    });
  });

  it("gives way, unfinished, to a lock timeout and at the deadline; other errors are the caller's", async () => {
    expect(await deleteInShrinkingBatches(async () => Promise.reject(pgError("55P03")), { batchSize: 10, deadline: FAR() })).toEqual({
      finished: false,
      deleted: 0,
    });
    expect(await deleteInShrinkingBatches(async (size) => size, { batchSize: 10, deadline: Date.now() - 1 })).toEqual({ finished: false, deleted: 10 });
    await expect(deleteInShrinkingBatches(async () => Promise.reject(pgError("23503")), { batchSize: 10, deadline: FAR() })).rejects.toMatchObject({
      code: "23503",
    });
  });
});
