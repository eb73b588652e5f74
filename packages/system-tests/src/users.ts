import { randomBytes } from "node:crypto";
import { announceCredentialChange } from "@hearth/gateway/credential-announcements";
import type { IdentityDb, IdentityTx } from "@hearth/gateway/db";
import type { ApiClient } from "./api-client";

export const TEST_PASSWORD = "Correct-horse-9";
export const DEVICE = { device_id: "test-device", device_name: "Vitest", device_type: "ios", os_version: "18.0", app_version: "1.0.0" };
/** Another device of the same person: a login there leaves the sessions on DEVICE (the sign-up's) alone. */
export const SECOND_DEVICE = { ...DEVICE, device_id: "second-device" };

export interface TestUser {
  id: string;
  email: string;
  accessToken: string;
  refreshToken: string;
  /** A `read_write` API key of this user. */
  writeKey: string;
  /** A `read` API key of this user. */
  readKey: string;
}

function expectStatus(what: string, actual: number, expected: number, body: unknown): void {
  if (actual !== expected) throw new Error(`${what}: expected ${expected}, got ${actual}: ${JSON.stringify(body)}`);
}

/**
 * Signs up a new user (and so a new family, of which they are admin) and gives them both kinds of
 * API key. `ai: true` also turns AI on for them (the chat routes answer only such users); it costs
 * one more bearer request, which rate-limit tests count.
 */
export async function signUpUser(api: ApiClient, label = "user", options: { ai?: boolean } = {}): Promise<TestUser> {
  const email = `${label}-${randomBytes(4).toString("hex")}@example.com`;
  const signup = await api.post("/api/v1/auth/signup", { user: { email, password: TEST_PASSWORD, first_name: "Test", last_name: label }, device: DEVICE });
  expectStatus("signup", signup.status, 201, signup.body);
  const token = signup.body.access_token as string;
  if (options.ai) {
    const enabled = await api.patch("/api/v1/auth/enable_ai", undefined, { token });
    expectStatus("enable AI", enabled.status, 200, enabled.body);
  }
  const keyOf = async (scope: "read" | "read_write") => {
    const created = await api.post("/api/v1/api_keys", { api_key: { name: `${scope} key`, scopes: [scope] } }, { token });
    expectStatus("create api key", created.status, 201, created.body);
    return created.body.key as string;
  };
  return {
    id: signup.body.user.id,
    email,
    accessToken: token,
    refreshToken: signup.body.refresh_token,
    writeKey: await keyOf("read_write"),
    readKey: await keyOf("read"),
  };
}

/** Logs in on `device`: a login ends the user's earlier sessions on the same device (as Sure's does). */
export async function logIn(api: ApiClient, email: string, password = TEST_PASSWORD, device = DEVICE) {
  return api.post("/api/v1/auth/login", { email, password, device });
}

/**
 * Changes a user's credentials (suspension, role, family) straight in the gateway's tables, as an
 * admin tool would, announcing it as the gateway's own writes do: without the announcement every
 * gateway instance keeps serving the cached credential for up to a minute.
 */
export async function changeCredentialsDirectly(db: IdentityDb, userId: string, change: (tx: IdentityTx) => Promise<unknown>): Promise<void> {
  await db.$transaction(async (tx) => {
    await change(tx);
    await announceCredentialChange(tx, [userId]);
  });
}
