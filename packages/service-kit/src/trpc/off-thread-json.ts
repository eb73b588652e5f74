import { Worker } from "node:worker_threads";

/**
 * The worker's whole program. "parse": UTF-8 bytes in (a leading byte order mark dropped, invalid
 * bytes read as U+FFFD, as tRPC's own `req.text()` reads them), the parsed value or the parse
 * error's message out. "stringify": a value in, its JSON as UTF-8 bytes out. Source text rather
 * than a file: the services are bundled into one file each (dev-tools/bin/bundle.mjs), which a
 * worker file beside this one would not survive.
 */
const WORKER_SOURCE = `
const { parentPort } = require("node:worker_threads");
const decoder = new TextDecoder("utf-8");
const encoder = new TextEncoder();
function tooManyValues(value, max) {
  const stack = [value];
  let count = 0;
  while (stack.length > 0) {
    const next = stack.pop();
    if (++count > max) return true;
    if (next !== null && typeof next === "object") for (const key in next) stack.push(next[key]);
  }
  return false;
}
parentPort.on("message", ({ id, op, payload }) => {
  try {
    if (op === "parse") {
      const value = JSON.parse(decoder.decode(payload.bytes));
      if (payload.maxValues !== undefined && tooManyValues(value, payload.maxValues)) throw new Error("The JSON holds more values than this request takes");
      parentPort.postMessage({ id, value });
    } else {
      const bytes = encoder.encode(JSON.stringify(payload));
      parentPort.postMessage({ id, value: bytes }, [bytes.buffer]);
    }
  } catch (err) {
    parentPort.postMessage({ id, error: err instanceof Error ? err.message : String(err) });
  }
});
`;

/** The body was not JSON: the caller's fault (tRPC answers it 400 with this message). */
export class JsonSyntaxError extends Error {}

type Op = "parse" | "stringify";
type Answer = { id: number; value: unknown } | { id: number; error: string };

/**
 * JSON.parse and JSON.stringify on a thread of their own. Decoding and parsing a 10 MB import file
 * sent as JSON takes 35 to 130 ms in one piece, stringifying it again to forward it 60 to 100 ms,
 * during which the event loop serves no one; here the loop only hands the value over (bytes are
 * transferred, not copied; a value's strings are copied, a few ms). One worker, started on first
 * use and again after it died, answers in the order asked; it never keeps the process alive.
 */
export class OffThreadJson {
  private worker: Worker | null = null;
  private nextId = 0;
  private readonly waiting = new Map<number, { worker: Worker; op: Op; resolve: (value: unknown) => void; reject: (err: Error) => void }>();

  /**
   * Parses `bytes`, whose buffer is handed to the worker (unusable here afterwards). With
   * `maxValues`, JSON holding more values (objects, arrays and what is in them) is refused as a
   * syntax error would be: the parsed value is copied back onto the event loop value by value, and
   * a few MB of `{"a":0}` took longer to copy than to parse.
   */
  parse(bytes: Uint8Array<ArrayBuffer>, options: { maxValues?: number } = {}): Promise<unknown> {
    return this.ask("parse", { bytes, maxValues: options.maxValues }, [bytes.buffer]);
  }

  /** `JSON.stringify(value)` as UTF-8 bytes (`value` is copied to the worker: plain data only). */
  async stringify(value: unknown): Promise<Uint8Array> {
    return (await this.ask("stringify", value, [])) as Uint8Array;
  }

  private ask(op: Op, payload: unknown, transfer: ArrayBuffer[]): Promise<unknown> {
    const worker = this.worker ?? this.start();
    const id = this.nextId++;
    return new Promise((resolve, reject) => {
      try {
        worker.postMessage({ id, op, payload }, transfer);
      } catch (err) {
        // A value that cannot be copied to the worker (a function in it): nothing was sent.
        reject(err instanceof Error ? err : new Error(String(err)));
        return;
      }
      this.waiting.set(id, { worker, op, resolve, reject });
      worker.ref();
    });
  }

  async close(): Promise<void> {
    const worker = this.worker;
    this.worker = null;
    await worker?.terminate();
  }

  private start(): Worker {
    const worker = new Worker(WORKER_SOURCE, { eval: true });
    worker.unref();
    worker.on("message", (answer: Answer) => {
      const waiter = this.waiting.get(answer.id);
      this.waiting.delete(answer.id);
      if (![...this.waiting.values()].some((other) => other.worker === worker)) worker.unref();
      if ("error" in answer) waiter?.reject(waiter.op === "parse" ? new JsonSyntaxError(answer.error) : new Error(answer.error));
      else waiter?.resolve(answer.value);
    });
    const died = (err: Error) => {
      if (this.worker === worker) this.worker = null;
      for (const [id, waiter] of this.waiting) {
        if (waiter.worker !== worker) continue;
        this.waiting.delete(id);
        waiter.reject(err);
      }
    };
    worker.on("error", died);
    worker.on("exit", (code) => died(new Error(`the JSON worker stopped (exit code ${code})`)));
    this.worker = worker;
    return worker;
  }
}
