// The Sure NDJSON reader shares finance's one event loop with every other request: a large file
// is read in turns (the event loop is given back every ~10 ms), at most two reads run at once,
// and the faster paths it takes answer exactly what the slower ones did.
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { preflightSureNdjson, readSureNdjson, SURE_NDJSON_LIMITS } from "../src/imports/ndjson";
import { parseJsonLine } from "../src/imports/ndjson/json-line";
import { countRecordLines, isBlankLine, recordLines } from "../src/imports/ndjson/ndjson-lines";
import { NDJSON_READS, NDJSON_UPLOADS_WAITING, Semaphore, SemaphoreFull } from "../src/imports/ndjson/semaphore";
import { preflightSureImport } from "../src/imports/sure-import-upload";
import { checkChunk } from "../src/imports/sessions/session-chunk-content";
import { Turns } from "../src/imports/ndjson/turns";
import { timerDuring } from "./event-loop";

const MiB = 1024 * 1024;

const account = JSON.stringify({ type: "Account", data: { id: "acct-1", name: "Main", balance: "1000", currency: "USD", accountable_type: "Depository" } });

/** About `bytes` of NDJSON: an account and transactions with `splits` split lines each (of 1.00 each). */
function transactions(bytes: number, splits: number): string {
  const lines = [account];
  let size = account.length;
  for (let i = 0; size < bytes; i++) {
    const split_lines = Array.from({ length: splits }, (_, j) => ({ id: `t${i}-s${j}`, amount: "1.00", name: `Part ${j}` }));
    const data = { id: `t${i}`, account_id: "acct-1", date: "2024-01-15", amount: `${Math.max(splits, 1)}.00`, name: `Groceries ${i}`, currency: "USD" };
    const line = JSON.stringify({ type: "Transaction", data: splits > 0 ? { ...data, split_lines } : data });
    lines.push(line);
    size += line.length + 1;
  }
  return lines.join("\n");
}

describe("a large file is read in turns", () => {
  // Before: a 10 MB file of split transactions held the event loop for 3-6 s in one piece.
  it("lets a timer fire all through the read of a 3 MB file of split transactions, and answers as before", async () => {
    const text = transactions(3 * MiB, 5);
    const { result, ticks, longestBusyMs, tookMs } = await timerDuring(() => readSureNdjson(text, { ...SURE_NDJSON_LIMITS, maxRows: 1_000_000 }));
    expect(result.errorCount).toBe(0);
    expect(result.records.Transaction.length).toBeGreaterThan(7_000);
    expect(result.records.Transaction[0]!.split_lines).toHaveLength(5);
    // Slices of ~10 ms: the timer fires through the read, never kept waiting long (a garbage collection may take tens of ms; the whole read was one wait before).
    expect(ticks).toBeGreaterThan(tookMs / 100);
    expect(longestBusyMs).toBeLessThan(500);
  });

  it("lets a timer fire through the preflight of the same file (its split lines count as rows)", async () => {
    const text = transactions(3 * MiB, 5);
    const { result, ticks, longestBusyMs, tookMs } = await timerDuring(() => preflightSureNdjson(text, { limits: { maxBytes: 10 * MiB, maxRows: 20_000 } }));
    expect(result.valid).toBe(true);
    expect(result.stats.rows_count).toBeLessThan(20_000);
    expect(result.warning_details).toEqual([{ code: "row_count_exceeded", message: "Row count exceeds this import type's publish limit." }]);
    expect(ticks).toBeGreaterThan(tookMs / 100);
    expect(longestBusyMs).toBeLessThan(500);
  });

  it("lets a timer fire through the check of a 10 MB session chunk, and counts its records as before", async () => {
    const text = transactions(9.5 * MiB, 5);
    const turns = new Turns();
    const { result, ticks, longestBusyMs, tookMs } = await timerDuring(() => checkChunk(text, false, turns));
    expect(result.rowsCount).toBe(text.split("\n").length);
    expect(result.summary.records).toEqual({ Account: 1, Transaction: result.rowsCount - 1 });
    // Before: one piece of ~200 ms, the timer never fired while it ran.
    expect(turns.paused).toBeGreaterThan(0);
    expect(ticks).toBeGreaterThan(tookMs / 100);
    expect(longestBusyMs).toBeLessThan(500);
  });

  it("pauses in a long run of blank lines too, and counts the lines as before", async () => {
    const text = `${"\n \r\n".repeat(5 * MiB)}${account}\n`;
    const turns = new Turns();
    const { result, longestBusyMs } = await timerDuring(() => countRecordLines(text, turns));
    expect(result).toBe(1);
    expect(turns.paused).toBeGreaterThan(0);
    expect(longestBusyMs).toBeLessThan(500);
  });
});

describe("Semaphore", () => {
  const deferred = () => {
    let resolve!: () => void;
    const promise = new Promise<void>((done) => (resolve = done));
    return { promise, resolve };
  };

  it("runs at most `size` tasks at once, the others in the order they came", async () => {
    const slots = new Semaphore(2);
    const gates = Array.from({ length: 5 }, deferred);
    const started: number[] = [];
    const runs = gates.map((gate, index) =>
      slots.run(async () => {
        started.push(index);
        await gate.promise;
        return index;
      }),
    );
    await new Promise(setImmediate);
    expect(started).toEqual([0, 1]);
    expect([slots.active, slots.queued]).toEqual([2, 3]);
    gates[1]!.resolve();
    await new Promise(setImmediate);
    expect(started).toEqual([0, 1, 2]);
    gates[0]!.resolve();
    await new Promise(setImmediate);
    expect(started).toEqual([0, 1, 2, 3]);
    for (const gate of gates) gate.resolve();
    expect(await Promise.all(runs)).toEqual([0, 1, 2, 3, 4]);
    expect([slots.active, slots.queued]).toEqual([0, 0]);
  });

  it("frees the slot of a task that throws, and the error reaches its caller", async () => {
    const slots = new Semaphore(1);
    await expect(slots.run(() => Promise.reject(new Error("boom")))).rejects.toThrow("boom");
    await expect(slots.run(async () => "next")).resolves.toBe("next");
    expect(slots.active).toBe(0);
  });

  it("refuses a task past `maxQueued` waiters, without starting it; one that waits for nothing is never refused", async () => {
    const slots = new Semaphore(1);
    const gate = deferred();
    const running = slots.run(() => gate.promise);
    const waiting = slots.run(async () => "second", 1);
    let ran = false;
    await expect(
      slots.run(async () => {
        ran = true;
      }, 1),
    ).rejects.toBeInstanceOf(SemaphoreFull);
    expect([ran, slots.active, slots.queued]).toEqual([false, 1, 1]);
    gate.resolve();
    await running;
    expect(await waiting).toBe("second");
    await expect(slots.run(async () => "free", 0)).resolves.toBe("free");
  });

  it("answers uploads past the waiting line 429 busy, while a publish (no limit) always waits", async () => {
    const text = transactions(64 * 1024, 0);
    const reads = Array.from({ length: 2 + NDJSON_UPLOADS_WAITING }, () => readSureNdjson(text, undefined, { maxQueued: NDJSON_UPLOADS_WAITING }));
    const upload = { content: text, filename: undefined, contentType: undefined };
    await expect(preflightSureImport(upload, "USD", "family-of-nobody-waiting")).rejects.toMatchObject({
      code: "rate_limit_exceeded",
      details: { reset_in_seconds: 2 },
    });
    const publish = readSureNdjson(text);
    await Promise.all([...reads, publish]);
    expect([NDJSON_READS.active, NDJSON_READS.queued]).toEqual([0, 0]);
  });

  it("gives families turns: a slot freed goes to the family with the fewest reads running, ahead of another's many", async () => {
    const slots = new Semaphore(2);
    const gates = Array.from({ length: 6 }, deferred);
    const started: string[] = [];
    const task = (name: string, gate: { promise: Promise<void> }) => async () => {
      started.push(name);
      await gate.promise;
    };
    const runs = [0, 1, 2, 3, 4].map((i) => slots.run(task(`A${i}`, gates[i]!), Infinity, { key: "A" }));
    runs.push(slots.run(task("B0", gates[5]!), Infinity, { key: "B" }));
    await new Promise(setImmediate);
    expect(started).toEqual(["A0", "A1"]);
    gates[0]!.resolve();
    await new Promise(setImmediate);
    // Oldest first would have been A2: B, with nothing running, goes first.
    expect(started).toEqual(["A0", "A1", "B0"]);
    for (const gate of gates) gate.resolve();
    await Promise.all(runs);
    expect(started).toEqual(["A0", "A1", "B0", "A2", "A3", "A4"]);
  });

  it("refuses a family past its own share of the waiting line, never another family", async () => {
    const slots = new Semaphore(1);
    const gate = deferred();
    const running = slots.run(() => gate.promise, Infinity, { key: "A" });
    const own = { key: "A", maxQueuedOfKey: 2 };
    const waiting = [slots.run(async () => "A1", 8, own), slots.run(async () => "A2", 8, own)];
    await expect(slots.run(async () => "A3", 8, own)).rejects.toBeInstanceOf(SemaphoreFull);
    const other = slots.run(async () => "B1", 8, { key: "B", maxQueuedOfKey: 2 });
    gate.resolve();
    await running;
    expect(await Promise.all([...waiting, other])).toEqual(["A1", "A2", "B1"]);
  });

  it("wants a whole number of slots, at least one", () => {
    expect(() => new Semaphore(0)).toThrow(RangeError);
    expect(() => new Semaphore(1.5)).toThrow(RangeError);
  });

  it("holds twenty parallel reads to two at a time, each answering as alone", async () => {
    const texts = Array.from({ length: 20 }, (_, i) => transactions(64 * 1024 + i * 100, i % 3));
    const alone = [];
    for (const text of texts) alone.push(await readSureNdjson(text));
    let most = 0;
    const watch = setInterval(() => (most = Math.max(most, NDJSON_READS.active)), 1);
    const reads = Promise.all(texts.map((text) => readSureNdjson(text)));
    expect(NDJSON_READS.active).toBe(2);
    expect(NDJSON_READS.queued).toBe(18);
    const together = await reads;
    clearInterval(watch);
    expect(most).toBeLessThanOrEqual(2);
    expect(together).toEqual(alone);
    expect([NDJSON_READS.active, NDJSON_READS.queued]).toEqual([0, 0]);
  });
});

describe("the faster paths answer as the slower ones did", () => {
  /** parseJsonLine as it was: JSON.parse with a reviver giving each number's source text. */
  function parsedBefore(text: string): { ok: true; value: unknown } | { ok: false; message: string } {
    try {
      const reviver = (_key: string, value: unknown, context?: { source?: string }) => (typeof value === "number" ? (context?.source ?? String(value)) : value);
      return { ok: true, value: JSON.parse(text, reviver as (key: string, value: unknown) => unknown) };
    } catch (err) {
      return { ok: false, message: (err as Error).message };
    }
  }

  const parsedNow = (text: string) => {
    const parsed = parseJsonLine(text, { maxLineBytes: MiB, maxDepth: 1_000 });
    return parsed.ok ? parsed : { ok: false as const, message: parsed.message.replace(/^is not valid JSON: /, "") };
  };

  it("reads numbers as their text without a reviver, for any JSON", () => {
    const number = fc.oneof(
      fc.double({ noNaN: true, noDefaultInfinity: true }).map(String),
      fc.constantFrom("0", "-0", "1e400", "-1E-7", "12.30", "0.10", "100000000000000000000001", "1.5e+3"),
    );
    const json: fc.Arbitrary<string> = fc.letrec<{ value: string }>((tie) => ({
      value: fc.oneof(
        { depthSize: "small" },
        number,
        fc.string().map((text) => JSON.stringify(text)),
        fc.constantFrom("true", "false", "null"),
        fc.array(tie("value"), { maxLength: 5 }).map((items) => `[${items.join(",")}]`),
        fc
          .array(fc.tuple(fc.string(), tie("value")), { maxLength: 5 })
          .map((pairs) => `{${pairs.map(([key, value]) => `${JSON.stringify(key)} : ${value}`).join(" ,\n")}}`),
      ),
    })).value;
    fc.assert(
      fc.property(json, (text) => {
        expect(parsedNow(text)).toEqual(parsedBefore(text));
      }),
      { numRuns: 500 },
    );
  });

  it("answers text that is not JSON with JSON.parse's own words, numbers as keys and malformed numbers included", () => {
    const cases = [
      "{1:2}",
      '{"a":01}',
      '{"a":1.}',
      '{"a":-}',
      '{"a":1e}',
      '{"a":1.5.3}',
      "[1 2]",
      '{"a" 1}',
      "[1,,2]",
      "1true",
      '{"a":+1}',
      '{"a":.5}',
      "[-Infinity]",
    ];
    for (const text of cases) expect(parsedNow(text)).toEqual(parsedBefore(text));
    const alphabet = fc.constantFrom(...'{}[]:,"\\ 0123456789-+.eEtrufalsn'.split(""));
    fc.assert(
      fc.property(fc.array(alphabet, { maxLength: 30 }), (chars) => {
        expect(parsedNow(chars.join(""))).toEqual(parsedBefore(chars.join("")));
      }),
      { numRuns: 2_000 },
    );
  });

  it("finds the nonblank lines, numbered, as the line-by-line walk did", () => {
    /** The walk as it was: every line sliced, blank ones then skipped. */
    function linesBefore(text: string) {
      const lines = [];
      let start = 0;
      let number = 0;
      while (start < text.length) {
        const end = text.indexOf("\n", start);
        const stop = end === -1 ? text.length : end;
        number++;
        const line = text.charCodeAt(stop - 1) === 0x0d && stop > start ? text.slice(start, stop - 1) : text.slice(start, stop);
        if (!isBlankLine(line)) lines.push({ number, text: line });
        if (end === -1) break;
        start = end + 1;
      }
      return lines;
    }
    const alphabet = fc.constantFrom("\n", "\r", " ", "\t", "\u0000", "\u000b", "a", "{", "\r\n");
    fc.assert(
      fc.property(fc.array(alphabet, { maxLength: 40 }), (parts) => {
        const text = parts.join("");
        expect([...recordLines(text)].filter((line) => line !== null)).toEqual(linesBefore(text));
      }),
      { numRuns: 2_000 },
    );
    const manyBlank = `${"\n".repeat(10_000)}x`;
    expect([...recordLines(manyBlank)].filter((line) => line === null)).toHaveLength(2);
    expect([...recordLines(manyBlank)].at(-1)).toEqual({ number: 10_001, text: "x" });
  });
});
