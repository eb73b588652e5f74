import { Writable } from "node:stream";

/** Size of one stored slice of an archive. */
export const CHUNK_BYTES = 1024 * 1024;

/**
 * A Writable that cuts what it is given into slices of `CHUNK_BYTES` and hands each to `store`
 * in order, one at a time. The archive goes on being written while a slice is stored (at most one
 * store in flight: a second full slice waits for it), so storing does not stall the export, and at
 * most two slices are held in memory.
 */
export function chunkedSink(store: (seq: number, slice: Uint8Array<ArrayBuffer>) => Promise<void>): Writable {
  let pending: Buffer[] = [];
  let pendingBytes = 0;
  let seq = 0;
  let storing: Promise<void> = Promise.resolve();

  /** Waits for the slice being stored, then starts storing `slice` (rejecting with the first store that failed). */
  async function handOver(slice: Uint8Array<ArrayBuffer>): Promise<void> {
    await storing;
    storing = store(seq++, slice);
    // Its failure is seen by the next handOver or by final, not left unhandled meanwhile.
    storing.catch(() => undefined);
  }

  /** Hands over every whole slice of what is pending (or everything, at the end). */
  async function flush(all: boolean): Promise<void> {
    const whole = Buffer.concat(pending, pendingBytes);
    let offset = 0;
    while (whole.length - offset >= (all ? 1 : CHUNK_BYTES)) {
      const slice = new Uint8Array(whole.subarray(offset, offset + CHUNK_BYTES));
      await handOver(slice);
      offset += slice.length;
    }
    pending = offset < whole.length ? [whole.subarray(offset)] : [];
    pendingBytes = whole.length - offset;
  }

  return new Writable({
    write(chunk: Buffer, _encoding, callback) {
      pending.push(chunk);
      pendingBytes += chunk.length;
      if (pendingBytes < CHUNK_BYTES) return callback();
      flush(false).then(() => callback(), callback);
    },
    final(callback) {
      flush(true)
        .then(() => storing)
        .then(() => callback(), callback);
    },
  });
}
