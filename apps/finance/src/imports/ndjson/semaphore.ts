import { Semaphore } from "@hearth/service-kit";

export { Semaphore, SemaphoreFull, type TaskOwner } from "@hearth/service-kit";

/**
 * NDJSON reads (an upload's create or preflight, a publish) running at once in the process: each
 * holds its file parsed, several times the file's size, so twenty parallel 10 MB uploads wait
 * their turn instead of holding twenty parsed files.
 */
export const NDJSON_READS = new Semaphore(2);

/**
 * Uploads (create, preflight) that may wait for an NDJSON read at once; more are refused as busy
 * (429) rather than each holding its 10 MB body in memory in an ever longer line. A publish in the
 * import worker always waits: it is already queued work.
 */
export const NDJSON_UPLOADS_WAITING = 8;

/** Of those, one family's at most: past them its uploads are refused (429), never another family's. */
export const NDJSON_UPLOADS_WAITING_PER_FAMILY = 2;
