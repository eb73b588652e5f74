import { createServer, type Server } from "node:net";
import { afterEach, describe, expect, it } from "vitest";
import { StartError } from "../src/start/log";
import { choosePort } from "../src/start/ports";
import { readSettings } from "../src/start/settings";

const servers: Server[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((server) => new Promise((resolve) => server.close(resolve))));
});

async function occupy(): Promise<number> {
  const server = createServer();
  servers.push(server);
  await new Promise<void>((resolve) => server.listen({ port: 0, host: "127.0.0.1" }, resolve));
  return (server.address() as { port: number }).port;
}

describe("npm start's ports", () => {
  it("reads HEARTH_<SERVICE>_PORT as configured, and the defaults as preferences", () => {
    const settings = readSettings({ HEARTH_FINANCE_PORT: "5101" });
    expect(settings.internalPorts.finance).toEqual({ port: 5101, configured: true });
    expect(settings.internalPorts.chat).toEqual({ port: 4002, configured: false });
    expect(settings.pgPort).toEqual({ port: 54329, configured: false });
    expect(() => readSettings({ HEARTH_AUDIT_PORT: "99999" })).toThrow(/HEARTH_AUDIT_PORT must be a port number/);
  });

  it("takes another free port when an unconfigured default is taken (a second npm start beside the first)", async () => {
    const busy = await occupy();
    const port = await choosePort({ port: busy, configured: false }, "127.0.0.1", "finance", new Set());
    expect(port).not.toBe(busy);
    expect(port).toBeGreaterThan(0);
  });

  it("keeps a free default, but not one already chosen for another app of this start", async () => {
    const free = await occupy();
    await new Promise((resolve) => servers.pop()?.close(resolve));
    expect(await choosePort({ port: free, configured: false }, "127.0.0.1", "chat", new Set())).toBe(free);
    expect(await choosePort({ port: free, configured: false }, "127.0.0.1", "chat", new Set([free]))).not.toBe(free);
  });

  it("fails naming the variable when a configured port is taken", async () => {
    const busy = await occupy();
    const choosing = choosePort({ port: busy, configured: true }, "127.0.0.1", "audit", new Set());
    await expect(choosing).rejects.toBeInstanceOf(StartError);
    await expect(choosing).rejects.toThrow(/HEARTH_AUDIT_PORT/);
  });
});
