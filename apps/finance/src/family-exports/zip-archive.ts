import * as archiverModule from "archiver";
import type { Archiver, ArchiverOptions } from "archiver";

/**
 * The installed archiver (7) is a CommonJS factory, archiver("zip", options); @types/archiver 8
 * describes version 8's classes instead. Node hands the factory over as the module's default
 * export, so it is taken from there and typed by hand; the Archiver stream type is the same.
 */
const createArchive = (archiverModule as unknown as { default: (format: "zip", options?: ArchiverOptions) => Archiver }).default;

/**
 * A streaming ZIP writer (zlib's default deflate level). Its buffers hold 64 KB each, not
 * archiver's 1 MB: compressed bytes, which a slow output would otherwise let pile up to some
 * 30 MB of rows read ahead.
 */
export const zipArchive = (): Archiver => createArchive("zip", { zlib: { level: 6 }, highWaterMark: 64 * 1024 });
