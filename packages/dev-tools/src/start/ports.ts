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

function hintFor(what: string): string {
  if (what === "gateway") return ", or set PORT to another port";
  if (what === "embedded PostgreSQL") return ", or set HEARTH_PG_PORT to another port";
  return " (an earlier `npm start` may still be running)";
}
