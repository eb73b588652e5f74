import { generateKeyPair, randomBytes, randomUUID } from "node:crypto";
import { promisify } from "node:util";
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import Provider, { type Configuration, type JWK } from "oidc-provider";
import { walkAuthorization } from "./oidc/headless-browser";
import { handleInteraction, interactionPath, isInteractionRequest } from "./oidc/interactions";
import { createMemoryAdapter } from "./oidc/memory-adapter";

export interface OidcTestUser {
  sub: string;
  email: string;
  email_verified?: boolean;
  given_name?: string;
  family_name?: string;
  /** Served as the `groups` claim (scopes `profile` and `groups`), for role sync in relying parties. */
  groups?: string[];
}

export interface OidcTestClient {
  client_id: string;
  client_secret: string;
  redirect_uris: string[];
  /** How the client authenticates at the token endpoint; the spec's default is `client_secret_basic`. */
  token_endpoint_auth_method?: "client_secret_basic" | "client_secret_post";
}

export interface OidcProviderOptions {
  clients: OidcTestClient[];
  users: OidcTestUser[];
  /** Lifetime of ID tokens; 1 hour unless set. */
  idTokenTtlSeconds?: number;
}

export interface TestOidcProvider {
  /** `http://127.0.0.1:<port>`: discovery at `${issuer}/.well-known/openid-configuration`. */
  issuer: string;
  addUser(user: OidcTestUser): void;
  /**
   * Walks the browser part of the code flow headlessly: GETs the authorize URL, logs in as `sub`
   * at the provider's interaction, grants consent, and returns the final redirect URL (to the
   * client's redirect_uri, carrying code and state, or error) without following it.
   */
  authorize(authorizeUrl: string, sub: string): Promise<URL>;
  stop(): Promise<void>;
}

/**
 * A real OpenID Connect provider (panva's certified oidc-provider) on a random loopback port, for
 * tests of relying parties: authorization code flow with PKCE (S256, required), RS256 ID tokens
 * signed with keys made at start, and the given users and clients.
 */
export async function startOidcProvider(options: OidcProviderOptions): Promise<TestOidcProvider> {
  const users = new Map(options.users.map((user) => [user.sub, user]));
  let handle: (req: IncomingMessage, res: ServerResponse) => void = (_req, res) => res.writeHead(503).end();
  const server = createServer((req, res) => handle(req, res));
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(0, "127.0.0.1", resolve);
  });
  // The issuer must be known before the provider exists, hence listening first.
  const issuer = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

  const provider = new Provider(issuer, await providerConfiguration(options, users));
  const serverErrors: unknown[] = [];
  provider.on("server_error", (_ctx, error) => serverErrors.push(error));
  const providerCallback = provider.callback();
  handle = (req, res) => {
    const url = new URL(req.url ?? "/", issuer);
    if (!isInteractionRequest(req, url)) return void providerCallback(req, res);
    handleInteraction(provider, (sub) => users.has(sub), req, res, url).catch((error: unknown) => {
      serverErrors.push(error);
      if (res.headersSent) return void res.end();
      res.writeHead(400, { "content-type": "application/json" }).end(JSON.stringify({ error: "interaction_failed", error_description: String(error) }));
    });
  };

  const redirectUris = options.clients.flatMap((client) => client.redirect_uris);
  return {
    issuer,
    addUser: (user) => void users.set(user.sub, user),
    async authorize(authorizeUrl, sub) {
      try {
        return await walkAuthorization(authorizeUrl, sub, { providerOrigin: issuer, redirectUris });
      } catch (error) {
        // The provider keeps its own failures to itself (a generic server_error page): add them.
        throw serverErrors.length ? new Error(`${String(error)}; provider errors: ${serverErrors.map(String).join("; ")}`, { cause: error }) : error;
      }
    },
    async stop() {
      server.closeAllConnections();
      await new Promise<void>((resolve, reject) => server.close((error) => (error ? reject(error) : resolve())));
    },
  };
}

async function providerConfiguration(options: OidcProviderOptions, users: ReadonlyMap<string, OidcTestUser>): Promise<Configuration> {
  return {
    adapter: createMemoryAdapter(),
    clients: options.clients.map((client) => ({
      ...client,
      grant_types: ["authorization_code"],
      response_types: ["code"],
      token_endpoint_auth_method: client.token_endpoint_auth_method ?? "client_secret_basic",
    })),
    jwks: { keys: [await rs256SigningKey()] },
    cookies: { keys: [randomBytes(32).toString("base64url")] },
    claims: {
      openid: ["sub"],
      email: ["email", "email_verified"],
      profile: ["name", "given_name", "family_name", "groups"],
      groups: ["groups"],
    },
    // By default claims of scopes go only to userinfo when an access token is issued too
    // (Core 5.4); relying parties usually read them from the ID token, so put them there.
    conformIdTokenClaims: false,
    pkce: { required: () => true },
    features: { devInteractions: { enabled: false } },
    interactions: { url: (_ctx, interaction) => interactionPath(interaction.uid) },
    findAccount: (_ctx, sub) => {
      const user = users.get(sub);
      if (!user) return undefined;
      const name = [user.given_name, user.family_name].filter(Boolean).join(" ");
      return { accountId: sub, claims: () => ({ ...user, ...(name ? { name } : {}) }) };
    },
    // Every TTL the flow uses is set: the defaults print a notice each when first called.
    ttl: {
      AccessToken: 3600,
      AuthorizationCode: 60,
      ClientCredentials: 600,
      Grant: 3600,
      IdToken: options.idTokenTtlSeconds ?? 3600,
      Interaction: 600,
      RefreshToken: 86_400,
      Session: 3600,
    },
    clientBasedCORS: () => true,
    // A JSON error body instead of the default HTML page (which also prints a notice).
    renderError: (ctx, out) => {
      ctx.type = "json";
      ctx.body = out;
    },
  };
}

async function rs256SigningKey(): Promise<JWK> {
  const { privateKey } = await promisify(generateKeyPair)("rsa", { modulusLength: 2048 });
  return { ...privateKey.export({ format: "jwk" }), kid: randomUUID(), alg: "RS256", use: "sig" } as JWK;
}
