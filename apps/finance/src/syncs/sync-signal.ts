/** The in-process signal a committed change sends so the worker starts at once instead of at its next poll. */
export interface SyncSignal {
  poke(): void;
}
