import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterEach, describe, expect, it } from "vitest";
import { createKeepAliveFetch } from "../../src/trpc/keep-alive-fetch";

const servers: Server[] = [];
afterEach(async () => {
  for (const server of servers.splice(0)) {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  }
});

/** A server answering with `answer`; counts the connections it accepted. */
async function serve(answer: (body: string, respond: (status: number, text: string) => void) => void) {
  const state = { connections: 0 };
  const server = createServer((req, res) => {
    let body = "";
    req.on("data", (chunk: Buffer) => (body += chunk.toString()));
    req.on("end", () => answer(body, (status, text) => res.writeHead(status, { "content-type": "application/json" }).end(text)));
  });
  server.on("connection", () => state.connections++);
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, state };
}

describe("the service client's fetch", () => {
  it("sends the method, headers and body, answers json(), and keeps one connection for calls in a row", async () => {
    const { url, state } = await serve((body, respond) => respond(200, JSON.stringify({ echoed: body })));
    const { fetch, close } = createKeepAliveFetch(1000);
    for (let i = 0; i < 5; i++) {
      const res = await fetch(`${url}/trpc/x`, { method: "POST", headers: { "content-type": "application/json" }, body: `{"n":${i}}` });
      expect(res).toMatchObject({ ok: true, status: 200 });
      expect(await res.json()).toEqual({ echoed: `{"n":${i}}` });
    }
    expect(state.connections).toBe(1);
    close();
  });

  it("answers an error status as not ok, with its body", async () => {
    const { url } = await serve((_body, respond) => respond(500, '{"error":{"message":"boom"}}'));
    const res = await createKeepAliveFetch(1000).fetch(url);
    expect(res).toMatchObject({ ok: false, status: 500 });
    expect(await res.json()).toEqual({ error: { message: "boom" } });
  });

  it("rejects a call the service does not answer within the deadline, and an aborted one", async () => {
    const { url } = await serve(() => {});
    const { fetch } = createKeepAliveFetch(200);
    const started = Date.now();
    await expect(fetch(url)).rejects.toThrow(/within 200 ms/);
    expect(Date.now() - started).toBeLessThan(2000);
    const controller = new AbortController();
    const call = fetch(url, { signal: controller.signal });
    controller.abort();
    await expect(call).rejects.toThrow(/aborted/);
  });

  it("rejects an answer over its size cap and a service that is not there", async () => {
    const { url } = await serve((_body, respond) => respond(200, JSON.stringify("x".repeat(10_000))));
    await expect(createKeepAliveFetch(1000, 1000).fetch(url)).rejects.toThrow(/exceeds 1000 bytes/);
    const { url: gone } = await serve(() => {});
    const last = servers.pop()!;
    await new Promise((resolve) => last.close(resolve));
    await expect(createKeepAliveFetch(1000).fetch(gone)).rejects.toThrow(/ECONNREFUSED/);
  });
});
