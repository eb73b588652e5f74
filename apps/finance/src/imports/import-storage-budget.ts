import { AppError } from "@hearth/contracts";
import type { FinanceTx } from "../db";
import { importBytesHeld, lockImportBytes } from "./import-storage-queries";

/**
 * What one family may keep of uploaded import content in all: its imports' files and its
 * unpublished import sessions' chunks (a published session's chunks are its import's file). Each file (10 MB) and session (64 MB) has its cap; this one bounds how many of
 * them a family parks in the database.
 */
export const FAMILY_IMPORT_BYTES = 512 * 1024 * 1024;

const MEBIBYTE = 1024 * 1024;

const sizeOf = (bytes: number) => (bytes >= MEBIBYTE ? `${Math.floor(bytes / MEBIBYTE)} MB` : `${bytes} bytes`);

/**
 * Takes the family's import-storage lock for the transaction (uploads of one family are counted
 * one after the other, on every instance) and refuses `adding` more bytes past `budget` (422
 * content_too_large). Deleting imports makes room.
 */
export async function reserveImportBytes(tx: FinanceTx, familyId: string, adding: number, budget: number): Promise<void> {
  await lockImportBytes(tx, familyId);
  if ((await importBytesHeld(tx, familyId)) + adding <= budget) return;
  throw new AppError("content_too_large", {
    message: `The family's imports hold too much already (at most ${sizeOf(budget)} of uploaded files in all): delete imports it no longer needs.`,
  });
}
