import { randomBytes, randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { routes, type RouteDef } from "@hearth/contracts";
import { testPostgresAdminUrl } from "@hearth/test-kit";
import { DEVICE, TEST_PASSWORD, apiClient, signUpUser, startSystem, type ApiClient, type TestSystem, type TestUser } from "../src";

// Every route of the contracts' table, checked through HTTP for the access it declares:
// the kind of credential, the scope and the role. Credentials are checked before input, so
// an empty body and a random id are enough to see the refusals.
let system: TestSystem;
let api: ApiClient;
let admin: TestUser;
let member: { accessToken: string; writeKey: string };
/** A user who has not turned AI on: the assistant's routes refuse them first. */
let withoutAi: TestUser;

beforeAll(async () => {
  system = await startSystem({ adminUrl: testPostgresAdminUrl() });
  api = apiClient(system.url);
  admin = await signUpUser(api, "matrix-admin", { ai: true });
  withoutAi = await signUpUser(api, "matrix-no-ai");
  const email = `matrix-member-${randomBytes(4).toString("hex")}@example.com`;
  const invite = await api.post("/api/v1/invitations", { invitation: { email } }, { token: admin.accessToken });
  const signup = await api.post("/api/v1/auth/signup", { user: { email, password: TEST_PASSWORD }, device: DEVICE, invite_code: invite.body.invite_code });
  const key = await api.post("/api/v1/api_keys", { api_key: { name: "w", scopes: ["read_write"] } }, { token: signup.body.access_token });
  member = { accessToken: signup.body.access_token, writeKey: key.body.key };
});
afterAll(async () => system?.stop());

const all = Object.values(routes) as RouteDef[];
const label = (route: RouteDef) => `${route.method} ${route.path}`;

function call(route: RouteDef, credential: { token?: string; apiKey?: string }) {
  const path = route.path.replace(/:[A-Za-z_]+/g, randomUUID());
  return api.request(route.method, path, { ...credential, ...(route.method === "GET" || route.method === "DELETE" ? {} : { body: {} }) });
}

describe("access of every route, as the route table declares it", () => {
  it.each(all.filter((route) => route.access.auth !== "public").map((route) => [label(route), route] as const))(
    "%s: no credential is 401",
    async (_name, route) => {
      const res = await call(route, {});
      expect(res.status).toBe(401);
      expect(res.body.error).toBe("unauthorized");
    },
  );

  it.each(all.filter((route) => route.access.auth === "bearer").map((route) => [label(route), route] as const))(
    "%s: an API key is 403",
    async (_name, route) => {
      expect((await call(route, { apiKey: admin.writeKey })).status).toBe(403);
    },
  );

  it.each(all.filter((route) => route.access.auth === "any" && route.access.scope === "read_write").map((route) => [label(route), route] as const))(
    "%s: a read-only API key is 403 insufficient_scope",
    async (_name, route) => {
      const res = await call(route, { apiKey: admin.readKey });
      expect(res.status).toBe(403);
      expect(res.body).toMatchObject({ error: "insufficient_scope", message: "This action requires the 'read_write' scope" });
    },
  );

  it.each(all.filter((route) => route.access.ai).map((route) => [label(route), route] as const))(
    "%s: a user without AI is 403 feature_disabled, whatever the key's scope",
    async (_name, route) => {
      for (const apiKey of [withoutAi.writeKey, withoutAi.readKey]) {
        const res = await call(route, { apiKey });
        expect(res.status).toBe(403);
        expect(res.body).toMatchObject({ error: "feature_disabled", message: "AI features are not enabled for this user" });
      }
    },
  );

  it.each(all.filter((route) => route.access.role === "admin").map((route) => [label(route), route] as const))(
    "%s: a member (not admin) is 403",
    async (_name, route) => {
      const credential = route.access.auth === "bearer" ? { token: member.accessToken } : { apiKey: member.writeKey };
      const res = await call(route, credential);
      expect(res.status).toBe(403);
      expect(res.body.error).toBe("forbidden");
    },
  );

  // Logging out and deleting oneself would end the member used here; their own tests cover them.
  const endsTheCaller = new Set(["auth.logout", "users.deleteMe"]);
  const permitted = all.filter((route) => route.access.auth !== "public" && route.access.role !== "admin" && !endsTheCaller.has(route.procedure));
  it.each(permitted.map((route) => [label(route), route] as const))("%s: the right credential gets past access checks", async (_name, route) => {
    const credential = route.access.auth === "bearer" ? { token: member.accessToken } : { apiKey: member.writeKey };
    const res = await call(route, credential);
    // Past access, an empty body or a random id is a 404, 422, 409 or a success; never 401/403.
    expect([401, 403]).not.toContain(res.status);
  });
});
