import { readdir, readFile, readlink } from "node:fs/promises";
import { createServer } from "node:net";
import path from "node:path";
import { fileURLToPath } from "node:url";

/** The repository's root (apps/<app> is where `npm start` runs each app). */
const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../../..");

/** A TCP port of 127.0.0.1 free at the time of asking. */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const address = server.address();
      server.close(() => (typeof address === "object" && address ? resolve(address.port) : reject(new Error("no free port"))));
    });
  });
}

/** The pid of an app `npm start` runs on `dataDir`: the process in apps/<app> with that data directory in its environment. */
export async function pidOfStartedApp(app: string, dataDir: string): Promise<number> {
  for (const entry of await readdir("/proc")) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      if ((await readlink(`/proc/${entry}/cwd`)) !== path.join(ROOT, "apps", app)) continue;
      if ((await readFile(`/proc/${entry}/environ`, "utf8")).split("\0").includes(`HEARTH_DATA_DIR=${dataDir}`)) return Number(entry);
    } catch {
      // gone, or not ours to read
    }
  }
  throw new Error(`no ${app} process of the npm start on ${dataDir}`);
}
