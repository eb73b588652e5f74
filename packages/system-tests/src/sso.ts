import { createServer } from "node:http";
import { createServer as createNetServer, type AddressInfo, type Socket } from "node:net";
import { expect } from "vitest";
import type { TestOidcProvider } from "@hearth/test-kit";
import type { ApiClient } from "./api-client";
import { DEVICE } from "./users";

/** The app's deep link SSO sends the browser back to (allowed by the gateway's default). */
export const APP_REDIRECT = "hearth://oauth/callback";

/** Settings of a provider at the test OpenID provider: client "hearth", JIT allowed, admins from the `groups` claim. */
export function ssoProviderSettings(idp: TestOidcProvider, clientSecret: string, name: string, overrides: Record<string, unknown> = {}) {
  return {
    name,
    issuer: idp.issuer,
    client_id: "hearth",
    client_secret: clientSecret,
    allow_account_creation: true,
    role_claim: "groups",
    admin_claim_values: ["hearth-admins"],
    ...overrides,
  };
}

/** The callback request to the gateway, as the browser makes it; answers where the gateway sends the app. */
export async function followSsoCallback(callback: URL, headers: Record<string, string> = {}): Promise<URL> {
  const res = await fetch(callback, { redirect: "manual", headers });
  expect(res.status).toBe(302);
  return new URL(res.headers.get("location") ?? "");
}

/** The browser's trip: our authorize URL, the provider's login as `sub`, back to our callback (sent with `headers`). */
export async function ssoSignIn(api: ApiClient, idp: TestOidcProvider, providerId: string, sub: string, headers: Record<string, string> = {}): Promise<URL> {
  const device = new URLSearchParams({ ...DEVICE, redirect_uri: APP_REDIRECT });
  const start = await api.get(`/api/v1/auth/sso/${providerId}/authorize?${device.toString()}`);
  expect(start.status, JSON.stringify(start.body)).toBe(200);
  return followSsoCallback(await idp.authorize(start.body.authorization_url, sub), headers);
}

/** A TCP server that answers nothing and counts the connections made to it: proof that nothing was sent its way. */
export async function startConnectionCounter(): Promise<{ port: number; connections: () => number; stop: () => Promise<void> }> {
  const sockets = new Set<Socket>();
  let connections = 0;
  const server = createNetServer((socket) => {
    connections++;
    sockets.add(socket);
    socket.once("close", () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return {
    port: (server.address() as AddressInfo).port,
    connections: () => connections,
    async stop() {
      for (const socket of sockets) socket.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

/**
 * A provider whose discovery document is `{"issuer":"aaaa…"}` of about `bytes` bytes, sent as fast
 * as it is read. A reader that caps what it takes hangs up early: `completed` stays false.
 */
export async function startHugeDiscovery(bytes: number) {
  const transfer = { written: 0, completed: false, requests: 0 };
  const chunk = Buffer.alloc(64 * 1024, "a");
  const server = createServer((_req, res) => {
    transfer.requests++;
    res.writeHead(200, { "content-type": "application/json" });
    res.write('{"issuer":"');
    let sent = 0;
    const pump = () => {
      while (sent < bytes) {
        if (res.destroyed) return;
        sent += chunk.length;
        transfer.written += chunk.length;
        if (!res.write(chunk)) return void res.once("drain", pump);
      }
      res.end('"}', () => (transfer.completed = true));
    };
    pump();
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return {
    issuer: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    transfer,
    async stop() {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
