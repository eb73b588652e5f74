import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";

export interface StubServer {
  /** `http://<host>:<port>` */
  url: string;
  port: number;
  /** "METHOD /path" of every request that reached it. */
  hits: string[];
  close(): Promise<void>;
}

/** A throwaway HTTP server answering with `handle`, counting what reaches it (on 127.0.0.1 unless `host`). */
export async function startStubServer(
  handle: (req: IncomingMessage, res: ServerResponse, url: URL) => void,
  host = "127.0.0.1",
  port = 0,
): Promise<StubServer> {
  const hits: string[] = [];
  const server = createServer((req, res) => {
    hits.push(`${req.method} ${req.url}`);
    handle(req, res, new URL(req.url ?? "/", "http://stub"));
  });
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(port, host, resolve);
  });
  const bound = (server.address() as AddressInfo).port;
  return {
    url: `http://${host}:${bound}`,
    port: bound,
    hits,
    async close() {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

export const json = (res: ServerResponse, body: unknown, status = 200) =>
  void res.writeHead(status, { "content-type": "application/json" }).end(JSON.stringify(body));

/** What became of a large answer: how much the client took before it hung up, and whether all of it went. */
export interface Transfer {
  written: number;
  completed: boolean;
  closed: Promise<void>;
}

/**
 * Answers `{"issuer":"aaaa…"}` of about `bytes` bytes as fast as the client reads it. A client that
 * caps what it reads hangs up early (`completed` stays false); one that does not takes it all.
 */
export function sendHugeIssuer(res: ServerResponse, bytes: number): Transfer {
  const transfer: Transfer = { written: 0, completed: false, closed: new Promise((resolve) => res.once("close", () => resolve())) };
  const chunk = Buffer.alloc(64 * 1024, "a");
  res.writeHead(200, { "content-type": "application/json" });
  res.write('{"issuer":"');
  const pump = () => {
    while (transfer.written < bytes) {
      if (res.destroyed) return;
      transfer.written += chunk.length;
      if (!res.write(chunk)) return void res.once("drain", pump);
    }
    res.end('"}', () => (transfer.completed = true));
  };
  pump();
  return transfer;
}
