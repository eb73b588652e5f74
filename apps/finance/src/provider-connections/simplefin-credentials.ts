import type { SecretBox } from "@hearth/service-kit";

/**
 * What a SimpleFIN connection holds, sealed: the claim URL of its setup token until the first
 * sync claims it, then the access URL (`https://user:pass@bridge/simplefin`). Both are secrets:
 * the claim URL is worth an access URL once, the access URL reads the family's bank data.
 */
export type SimplefinCredentials = { kind: "claim_url"; url: string } | { kind: "access_url"; url: string };

/** Credentials a client gave that cannot be used; the message says why without repeating them. */
export class CredentialsInvalid extends Error {
  constructor(message: string) {
    super(message);
    this.name = "CredentialsInvalid";
  }
}

/** Where requests go (no credentials in it) and the HTTP basic authorization they carry. */
export interface BridgeAccess {
  baseUrl: string;
  authorization: string;
}

function httpUrl(text: string, what: string): URL {
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    throw new CredentialsInvalid(`The ${what} is not a URL`);
  }
  if (url.protocol !== "https:" && url.protocol !== "http:") throw new CredentialsInvalid(`The ${what} must be an http(s) URL`);
  return url;
}

/**
 * The claim URL a setup token carries: SimpleFIN's token is the base64 of that URL (whitespace
 * from copying is ignored). Throws CredentialsInvalid.
 */
export function claimUrlOfSetupToken(token: string): string {
  const compact = token.replace(/\s+/g, "");
  if (!/^[A-Za-z0-9+/_-]+={0,2}$/.test(compact)) throw new CredentialsInvalid("The setup token is not base64 text");
  const decoded = Buffer.from(compact, "base64").toString("utf8");
  const url = httpUrl(decoded.trim(), "setup token's claim URL");
  if (url.username || url.password) throw new CredentialsInvalid("The setup token's claim URL must not carry a user name or password");
  return url.toString();
}

/** An access URL as the bridge gave it, checked: http(s) with a user name and a password. Throws CredentialsInvalid. */
export function checkedAccessUrl(text: string): string {
  const url = httpUrl(text.trim(), "access URL");
  if (!url.username || !url.password) throw new CredentialsInvalid("The access URL must carry the bridge's user name and password");
  if (url.search || url.hash) throw new CredentialsInvalid("The access URL must not have a query or a fragment");
  return url.toString();
}

/** The access URL without its credentials, and those credentials as a Basic authorization header. */
export function bridgeAccessOf(accessUrl: string): BridgeAccess {
  const url = new URL(accessUrl);
  const user = decodeURIComponent(url.username);
  const password = decodeURIComponent(url.password);
  url.username = "";
  url.password = "";
  return {
    baseUrl: url.toString().replace(/\/+$/, ""),
    authorization: `Basic ${Buffer.from(`${user}:${password}`, "utf8").toString("base64")}`,
  };
}

/** The URL a request to the bridge would go to first, credentials left out: what the address policy judges. */
export function destinationOf(credentials: SimplefinCredentials): string {
  return credentials.kind === "claim_url" ? credentials.url : bridgeAccessOf(credentials.url).baseUrl;
}

/** Seals and opens connections' credentials (AES-256-GCM, see service-kit's secret box). */
export function createCredentialStore(box: SecretBox) {
  return {
    seal: (credentials: SimplefinCredentials): string => box.seal(JSON.stringify(credentials)),
    /** Throws when the value was not sealed under this key (the internal auth secret changed) or is not credentials. */
    open(sealed: string): SimplefinCredentials {
      const value = JSON.parse(box.open(sealed)) as Partial<SimplefinCredentials>;
      if ((value.kind !== "claim_url" && value.kind !== "access_url") || typeof value.url !== "string") throw new Error("not provider credentials");
      return { kind: value.kind, url: value.url };
    },
  };
}
export type CredentialStore = ReturnType<typeof createCredentialStore>;
