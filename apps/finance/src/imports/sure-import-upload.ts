import { AppError, ImportConfigParamsSchema, type TextEncoding } from "@hearth/contracts";
import type { ImportRepository } from "./import-repository";
import { NdjsonContentError, preflightSureNdjson, type ExistingNames, readSureNdjson, SURE_NDJSON_LIMITS, type SureNdjsonPreflight } from "./ndjson";
import { NDJSON_UPLOADS_WAITING, NDJSON_UPLOADS_WAITING_PER_FAMILY, SemaphoreFull } from "./ndjson/semaphore";
import { ImportParseError } from "./parsing";

/** How a SureImport's content came: raw_file_content, or a file (whose name the gateway passes on). */
export interface SureUpload {
  content: string | undefined;
  filename: string | undefined;
  contentType: string | undefined;
  /** The encoding the gateway read the file in (undefined: JSON text). */
  encoding?: TextEncoding | undefined;
}

/** Line problems named in a 422 at most (the preflight's answer holds as many). */
const ERRORS_NAMED = 50;

/** Content refused as a whole, answered as Sure's imports controller answers it. */
async function accepted<T>(read: () => Promise<T>): Promise<T> {
  try {
    return await read();
  } catch (err) {
    if (err instanceof NdjsonContentError || err instanceof ImportParseError) throw err.toAppError();
    if (err instanceof SemaphoreFull)
      // reset_in_seconds becomes the answer's Retry-After (the gateway's error handler): a read takes a second or two.
      throw new AppError("rate_limit_exceeded", {
        message: "Too many of this family's imports are being read right now; try again in a moment",
        details: { reset_in_seconds: 2 },
      });
    throw err;
  }
}

const sourceOf = (upload: SureUpload) => (upload.filename !== undefined ? "file" : "content");

/**
 * Sure's create_sure_import: the NDJSON is read at once (too large, blank, a first line that is
 * no record, too many records: refused with Sure's code) and stored as the import's content,
 * with its nonblank lines as rows_count and its well-formed records as valid_rows_count (no
 * import_rows: the publisher reads the content again). Asked to publish, a file whose lines do
 * not all pass Sure's preflight is answered preflight_failed with the lines' problems (the
 * import stays, pending); else it is queued. Answers the import's id.
 */
export async function createSureImport(
  imports: ImportRepository,
  familyId: string,
  upload: SureUpload,
  options: { currency: string; publish: boolean; queued: () => void },
): Promise<string> {
  const content = upload.content ?? "";
  const read = await accepted(() =>
    readSureNdjson(content, SURE_NDJSON_LIMITS, {
      defaultCurrency: options.currency,
      source: sourceOf(upload),
      maxReportedProblems: ERRORS_NAMED,
      maxQueued: NDJSON_UPLOADS_WAITING,
      owner: { key: familyId, maxQueuedOfKey: NDJSON_UPLOADS_WAITING_PER_FAMILY },
    }),
  );
  const created = await imports.create(familyId, {
    type: "SureImport",
    accountId: null,
    configuration: ImportConfigParamsSchema.parse({}),
    content,
    encoding: upload.encoding,
    rows: [],
    counts: { rows: read.rowsCount, valid: read.validRowsCount },
  });
  if (!options.publish) return created.id;
  if (read.errorCount > 0) {
    throw new AppError("preflight_failed", {
      message: "Import was uploaded but did not pass Sure NDJSON preflight.",
      errors: read.errors.map((error) => error.message),
      importId: created.id,
    });
  }
  await imports.requestPublish(familyId, created.id);
  options.queued();
  return created.id;
}

/**
 * Sure's SureImport preflight of the content (nothing kept); the family's currency is what records
 * without one are in, its category, tag and merchant names collide (existing_taxonomy_collision).
 */
export function preflightSureImport(upload: SureUpload, currency: string, familyId: string, existingNames?: ExistingNames): Promise<SureNdjsonPreflight> {
  return accepted(() =>
    preflightSureNdjson(upload.content ?? "", {
      defaultCurrency: currency,
      existingNames,
      source: sourceOf(upload),
      maxQueued: NDJSON_UPLOADS_WAITING,
      owner: { key: familyId, maxQueuedOfKey: NDJSON_UPLOADS_WAITING_PER_FAMILY },
      ...(upload.filename !== undefined ? { filename: upload.filename } : {}),
      ...(upload.contentType !== undefined ? { contentType: upload.contentType } : {}),
    }),
  );
}
