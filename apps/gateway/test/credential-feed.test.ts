import { createServer, connect, type Server, type Socket } from "node:net";
import { afterEach, describe, expect, it } from "vitest";
import { testPostgresAdminUrl } from "@hearth/test-kit";
import { createLogger } from "@hearth/service-kit";
import { createCredentialChangeFeed, type CredentialChangeFeed } from "../src/identity/auth/credential-changes";

/** A TCP proxy in front of PostgreSQL that can go silent: it keeps every connection open and forwards nothing more. */
async function silenceableProxy(target: URL) {
  const sockets: Socket[] = [];
  const server: Server = createServer((client) => {
    const upstream = connect(Number(target.port || 5432), target.hostname);
    sockets.push(client, upstream);
    client.pipe(upstream);
    upstream.pipe(client);
    client.on("error", () => {});
    upstream.on("error", () => {});
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const port = (server.address() as { port: number }).port;
  const url = new URL(target);
  url.hostname = "127.0.0.1";
  url.port = String(port);
  return {
    url: url.toString(),
    silence: () => sockets.forEach((socket) => socket.unpipe()),
    close: async () => {
      sockets.forEach((socket) => socket.destroy());
      await new Promise((resolve) => server.close(resolve));
    },
  };
}

const feeds: CredentialChangeFeed[] = [];
afterEach(async () => {
  for (const feed of feeds.splice(0)) await feed.stop();
});

describe("the credential change feed", () => {
  it("counts a connection that stops answering as lost within its heartbeat, so the cache stops trusting it", async () => {
    const proxy = await silenceableProxy(new URL(testPostgresAdminUrl()));
    const live: boolean[] = [];
    const feed = createCredentialChangeFeed({
      databaseUrl: proxy.url,
      log: createLogger("credential-feed-test", "silent"),
      onChange: () => {},
      onLive: (value) => live.push(value),
      heartbeat: { everyMs: 200, timeoutMs: 300 },
    });
    feeds.push(feed);
    await feed.start();
    expect(live).toEqual([true]);
    await new Promise((resolve) => setTimeout(resolve, 600)); // heartbeats answered: still live
    expect(live).toEqual([true]);

    proxy.silence(); // no reset, no end: the connection just goes quiet
    const silencedAt = Date.now();
    while (live.length < 2 && Date.now() - silencedAt < 5_000) await new Promise((resolve) => setTimeout(resolve, 20));
    expect(live[1]).toBe(false);
    expect(Date.now() - silencedAt).toBeLessThan(1_500);
    await proxy.close();
  });
});
