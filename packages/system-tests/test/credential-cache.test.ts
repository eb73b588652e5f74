import { createServer } from "node:http";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createGateway } from "@hearth/gateway/gateway";
import { createLogger, listen } from "@hearth/service-kit";
import { testPostgresAdminUrl } from "@hearth/test-kit";
import type { IdentityTx } from "@hearth/gateway/db";
import { answersWithinOneSecond, apiClient, changeCredentialsDirectly, signUpUser, startSystem, type ApiClient, type TestSystem } from "../src";

// The gateway keeps credentials in memory (apps/gateway/src/identity/auth/credential-state.ts);
// every change that ends or alters one must reach every instance within a second.
let system: TestSystem;
let api: ApiClient;
let second: { api: ApiClient; start: () => Promise<void>; stop: () => Promise<void> };

/** Polls until `request` answers `status`; fails if that takes a second or more. Answers the time it took. */
/** The id of the user's read-only key (signUpUser makes one of each scope). */
async function readKeyIdOf(token: string): Promise<string> {
  const list = await api.get("/api/v1/api_keys", { token });
  const match = (list.body.api_keys as { id: string; scopes: string[] }[]).find((row) => row.scopes.join() === "read");
  if (!match) throw new Error(`no read key in ${JSON.stringify(list.body)}`);
  return match.id;
}

beforeAll(async () => {
  system = await startSystem({ adminUrl: testPostgresAdminUrl() });
  api = apiClient(system.url);
  // A second gateway instance on the same identity database, as behind a load balancer.
  const gateway = await createGateway({ config: system.config, db: system.db.gateway, log: createLogger("gateway-2", "silent") });
  const server = await listen(createServer(gateway.app), 0);
  second = { api: apiClient(server.url), start: gateway.start, stop: async () => (await gateway.stop(), await server.close()) };
  await second.start();
});
afterAll(async () => {
  await second?.stop();
  await system?.stop();
});

describe("credentials kept in memory by every gateway instance", () => {
  it("a key revoked through one instance stops working on both at once", async () => {
    const user = await signUpUser(api, "revoke");
    // Both instances have the key cached after a use.
    for (const client of [api, second.api]) expect((await client.get("/api/v1/tags", { apiKey: user.readKey })).status).toBe(200);
    const id = await readKeyIdOf(user.accessToken);
    expect((await api.delete(`/api/v1/api_keys/${id}`, { token: user.accessToken })).status).toBeLessThan(300);
    await answersWithinOneSecond(() => api.get("/api/v1/tags", { apiKey: user.readKey }), 401);
    await answersWithinOneSecond(() => second.api.get("/api/v1/tags", { apiKey: user.readKey }), 401);
  });

  it("a deleted user's cached keys stop working on every instance", async () => {
    const user = await signUpUser(api, "leaver");
    for (const client of [api, second.api]) expect((await client.get("/api/v1/tags", { apiKey: user.writeKey })).status).toBe(200);
    expect((await api.delete("/api/v1/users/me", { apiKey: user.writeKey })).status).toBe(200);
    await answersWithinOneSecond(() => second.api.get("/api/v1/tags", { apiKey: user.readKey }), 401);
    await answersWithinOneSecond(() => api.get("/api/v1/tags", { apiKey: user.readKey }), 401);
  });

  // The member handlers' suspension and role change announce in their transaction
  // (member-repository.ts); here the same write is made directly, as an admin tool would make it.
  const announcing = (userId: string, sql: (tx: IdentityTx) => Promise<unknown>) => changeCredentialsDirectly(system.db.gateway, userId, sql);

  it("a suspension ends the user's keys and bearer tokens within a second, and a reinstatement restores them", async () => {
    const user = await signUpUser(api, "suspend");
    expect((await api.get("/api/v1/tags", { apiKey: user.readKey })).status).toBe(200);
    expect((await second.api.get("/api/v1/tags", { token: user.accessToken })).status).toBe(200);
    await announcing(user.id, (tx) => tx.$executeRaw`UPDATE users SET suspended_at = now() WHERE id = ${user.id}::uuid`);
    await answersWithinOneSecond(() => api.get("/api/v1/tags", { apiKey: user.readKey }), 401);
    await answersWithinOneSecond(() => second.api.get("/api/v1/tags", { token: user.accessToken }), 401);
    expect((await api.get("/api/v1/tags", { apiKey: user.readKey })).body).toMatchObject({ message: "Account has been deactivated" });
    await announcing(user.id, (tx) => tx.$executeRaw`UPDATE users SET suspended_at = NULL WHERE id = ${user.id}::uuid`);
    await answersWithinOneSecond(() => api.get("/api/v1/tags", { apiKey: user.readKey }), 200);
  });

  it("a demotion takes an admin-only route away within a second", async () => {
    const user = await signUpUser(api, "demote");
    expect((await second.api.get("/api/v1/audit-logs", { token: user.accessToken })).status).toBe(200);
    await announcing(user.id, (tx) => tx.$executeRaw`UPDATE memberships SET role = 'member' WHERE user_id = ${user.id}::uuid`);
    await answersWithinOneSecond(() => second.api.get("/api/v1/audit-logs", { token: user.accessToken }), 403);
  });

  it("while the change feed is cut, nothing is served from memory: a revocation in that gap still counts", async () => {
    const user = await signUpUser(api, "feedcut");
    expect((await api.get("/api/v1/tags", { apiKey: user.readKey })).status).toBe(200);
    // Cut both instances' LISTEN connections, and revoke before they are back.
    await system.db.gateway.$queryRaw`SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE application_name = 'gateway-credential-feed'`;
    await system.db.gateway.$executeRaw`UPDATE api_keys SET revoked_at = now() WHERE user_id = ${user.id}::uuid`;
    await answersWithinOneSecond(() => api.get("/api/v1/tags", { apiKey: user.readKey }), 401);
    await answersWithinOneSecond(() => second.api.get("/api/v1/tags", { apiKey: user.readKey }), 401);
    // The feeds come back by themselves, and keys work again from memory.
    const other = await signUpUser(api, "after");
    await answersWithinOneSecond(async () => {
      const [rows] = await system.db.gateway.$queryRaw<
        { n: bigint }[]
      >`SELECT count(*) AS n FROM pg_stat_activity WHERE application_name = 'gateway-credential-feed'`;
      return { status: Number(rows?.n) >= 2 ? 200 : 503, body: rows };
    }, 200);
    expect((await api.get("/api/v1/tags", { apiKey: other.readKey })).status).toBe(200);
  });
});
