import { randomBytes } from "node:crypto";
import { request } from "./http";

export const PASSWORD = "Correct-horse-9";
export const DEVICE = { device_id: "reliability", device_name: "Vitest", device_type: "ios", os_version: "18.0", app_version: "1.0.0" };

export interface User {
  id: string;
  familyId: string;
  accessToken: string;
  refreshToken: string;
  /** A `read_write` API key. */
  writeKey: string;
}

/** Signs up a new user (a new family, of which they are admin) with a read_write API key. */
export async function signUp(gatewayUrl: string, label: string): Promise<User> {
  const email = `${label}-${randomBytes(5).toString("hex")}@example.com`;
  const signup = await request(gatewayUrl, "POST", "/api/v1/auth/signup", {
    body: { user: { email, password: PASSWORD, first_name: "Reliability", last_name: label }, device: DEVICE },
  });
  if (signup.status !== 201) throw new Error(`signup: ${signup.status} ${JSON.stringify(signup.body)} ${signup.error ?? ""}`);
  const token = signup.body.access_token as string;
  const key = await request(gatewayUrl, "POST", "/api/v1/api_keys", { token, body: { api_key: { name: "reliability", scopes: ["read_write"] } } });
  if (key.status !== 201) throw new Error(`api key: ${key.status} ${JSON.stringify(key.body)}`);
  return { id: signup.body.user.id, familyId: familyIdOf(token), accessToken: token, refreshToken: signup.body.refresh_token, writeKey: key.body.key };
}

/** The family id in an access token's claims (the audit store and finance rows are keyed by it). */
function familyIdOf(accessToken: string): string {
  const claims = JSON.parse(Buffer.from(accessToken.split(".")[1] ?? "", "base64url").toString()) as Record<string, unknown>;
  const familyId = claims.fam;
  if (typeof familyId !== "string") throw new Error(`no family id in the access token's claims: ${Object.keys(claims).join(", ")}`);
  return familyId;
}
