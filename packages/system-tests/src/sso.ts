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
