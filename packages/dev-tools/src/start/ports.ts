import { createServer } from "node:net";
import { StartError } from "./log";

/** Fails with a message naming who wanted the port, before a child dies on EADDRINUSE. */
export async function assertPortFree(port: number, host: string, what: string): Promise<void> {
  await new Promise<void>((resolve, reject) => {
    const server = createServer();
    server.once("error", (error: NodeJS.ErrnoException) => {
      if (error.code === "EADDRINUSE")
        reject(new StartError(`Port ${port} on ${host} (${what}) is already in use. Stop whatever listens there${hintFor(what)}.`));
      else if (error.code === "EACCES") reject(new StartError(`Not allowed to listen on port ${port} (${what}); choose a port above 1023${hintFor(what)}.`));
      else reject(error);
    });
    server.listen({ port, host, exclusive: true }, () => server.close(() => resolve()));
  });
}

/** Asks the OS for a port nobody listens on now. */
async function anyFreePort(host: string): Promise<number> {
  return new Promise<number>((resolve, reject) => {
    const server = createServer();
    server.once("error", reject);
    server.listen({ port: 0, host, exclusive: true }, () => {
      const address = server.address();
      server.close(() => (address && typeof address === "object" ? resolve(address.port) : reject(new Error("no port assigned"))));
    });
  });
}

/**
 * A configured port must be free (the user asked for it); an unconfigured one is the preferred
 * default when free, else any free port, so a second `npm start` (its own data directory and
 * PORT) runs beside the first. `taken` holds ports already chosen for this start.
 */
export async function choosePort(choice: { port: number; configured: boolean }, host: string, what: string, taken: Set<number>): Promise<number> {
  if (choice.configured) {
    await assertPortFree(choice.port, host, what);
    return choice.port;
  }
  if (!taken.has(choice.port)) {
    const free = await assertPortFree(choice.port, host, what).then(
      () => true,
      (error: unknown) => {
        if (error instanceof StartError) return false;
        throw error;
      },
    );
    if (free) return choice.port;
  }
  for (;;) {
    const port = await anyFreePort(host);
    if (!taken.has(port)) return port;
  }
}

function hintFor(what: string): string {
  if (what === "gateway") return ", or set PORT to another port";
  if (what === "embedded PostgreSQL") return ", or set HEARTH_PG_PORT to another port (or unset it: a free one is chosen)";
  return ` (an earlier \`npm start\` may still be running), or set HEARTH_${what.toUpperCase()}_PORT to another port (or unset it: a free one is chosen)`;
}
