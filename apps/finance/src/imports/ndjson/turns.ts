import { setImmediate as nextTurn } from "node:timers/promises";

/**
 * Units of work (a short line or record, 256 characters of a long one) between two looks at the
 * clock. Reading one line of a Transaction with 20 split lines takes about half a millisecond:
 * a look costs far less than the work between two.
 */
const UNITS_BETWEEN_LOOKS = 32;
/** Work at most this long (ms) before other requests get the event loop: two large uploads read at once cost another request up to two slices per turn of the loop. */
const SLICE_MS = 5;

/**
 * The turns a long loop gives the event loop: finance reads a 10 MB file (a 64 MB import session)
 * in its one process, and every other request of every family waits while a loop holds it. A
 * loop counts its work with `due(units)`, cheap (a counter; the clock every UNITS_BETWEEN_LOOKS
 * units), which is true once SLICE_MS of work went by; it then awaits `pause()`, in which timers,
 * I/O and other requests run.
 */
export class Turns {
  private units = 0;
  private sliceStart = performance.now();
  /** Pauses taken (for tests and measurements). */
  paused = 0;

  due(units = 1): boolean {
    this.units += units;
    if (this.units < UNITS_BETWEEN_LOOKS) return false;
    this.units = 0;
    return performance.now() - this.sliceStart >= SLICE_MS;
  }

  async pause(): Promise<void> {
    await nextTurn();
    this.paused++;
    this.sliceStart = performance.now();
  }
}

/** A line's work in Turns units: one, and one more per 256 characters (reading a 1 MB line takes milliseconds). */
export const lineUnits = (length: number): number => 1 + (length >> 8);
