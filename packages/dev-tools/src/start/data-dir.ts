import { chmod, lstat, mkdir } from "node:fs/promises";
import { StartError } from "./log";

/**
 * Creates the data directory (private to the user) and refuses one owned by someone else:
 * root's default sits in the shared temp directory, where another user could plant it.
 */
export async function prepareDataDir(dir: string): Promise<void> {
  const uid = process.getuid?.();
  // As root the `postgres` OS user must pass through to its cluster folder, without reading the rest.
  const mode = uid === 0 ? 0o711 : 0o700;
  try {
    await mkdir(dir, { recursive: true, mode });
  } catch (error) {
    throw new StartError(`Cannot create the data directory ${dir}: ${(error as Error).message}. Set HEARTH_DATA_DIR to a writable folder.`);
  }
  const info = await lstat(dir);
  if (uid !== undefined && info.uid !== uid)
    throw new StartError(`The data directory ${dir} belongs to another user (uid ${info.uid}); set HEARTH_DATA_DIR to a folder of your own.`);
  if (!info.isDirectory()) throw new StartError(`The data directory ${dir} is not a directory; set HEARTH_DATA_DIR to a folder.`);
  if (uid === 0) await chmod(dir, mode);
}
