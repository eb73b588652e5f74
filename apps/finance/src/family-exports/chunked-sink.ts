import { Writable } from "node:stream";

/** Size of one stored slice of an archive. */
export const CHUNK_BYTES = 1024 * 1024;

/**
 * A Writable that cuts what it is given into slices of `sliceBytes` (default CHUNK_BYTES) and
 * hands each to `store` in order, waiting for it (backpressure: the archive is produced only as
 * fast as slices are stored), so at most one slice is held in memory, and when the export fails no store is still
 * running behind it (a slice written after the export was failed, or a lease renewed after it).
 */
export function chunkedSink(store: (seq: number, slice: Uint8Array<ArrayBuffer>) => Promise<void>, sliceBytes: number = CHUNK_BYTES): Writable {
  let pending: Buffer[] = [];
  let pendingBytes = 0;
  let seq = 0;
  /** Hands over every whole slice of what is pending (or everything, at the end). */
  async function flush(all: boolean): Promise<void> {
    const whole = Buffer.concat(pending, pendingBytes);
    let offset = 0;
    while (whole.length - offset >= (all ? 1 : sliceBytes)) {
      const slice = new Uint8Array(whole.subarray(offset, offset + sliceBytes));
      await store(seq++, slice);
      offset += slice.length;
    }
    pending = offset < whole.length ? [whole.subarray(offset)] : [];
    pendingBytes = whole.length - offset;
  }

  return new Writable({
    write(chunk: Buffer, _encoding, callback) {
      pending.push(chunk);
      pendingBytes += chunk.length;
      if (pendingBytes < sliceBytes) return callback();
      flush(false).then(() => callback(), callback);
    },
    final(callback) {
      flush(true).then(() => callback(), callback);
    },
  });
}
