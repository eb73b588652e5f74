import { z } from "zod";
import { BaseServiceEnvSchema, PortSchema, markSecret, secretSchema } from "@hearth/service-kit";

/** Where a service listens: an http(s) URL (a bare `host:port` would parse as a URL scheme). */
const ServiceUrlSchema = z.url({ protocol: /^https?$/, message: "must be an http:// or https:// URL" });

const KeyIdSchema = z.string().regex(/^[A-Za-z0-9._-]{1,64}$/, { message: "must be 1 to 64 letters, digits, '.', '_' or '-'" });
const PreviousKeysSchema = z
  .string()
  .transform((list) =>
    list
      .split(",")
      .map((entry) => entry.trim())
      .filter(Boolean)
      .map((entry) => ({ kid: entry.slice(0, Math.max(entry.indexOf(":"), 0)), secret: entry.slice(entry.indexOf(":") + 1) })),
  )
  .pipe(z.array(z.object({ kid: KeyIdSchema, secret: z.string().min(32, { message: "must be at least 32 characters" }) })))
  .refine((keys) => new Set(keys.map((key) => key.kid)).size === keys.length, { message: "key ids must be distinct" });

export const GatewayEnvSchema = BaseServiceEnvSchema.extend({
  PORT: PortSchema.default(3000),
  HOST: z.string().default("0.0.0.0"),
  /** Signs access tokens; named by JWT_KEY_ID in each token's `kid` header. */
  JWT_SECRET: secretSchema(),
  JWT_KEY_ID: KeyIdSchema.default("primary"),
  /** Retired keys that still verify the tokens they signed: `kid:secret,kid:secret`. */
  JWT_PREVIOUS_KEYS: markSecret(PreviousKeysSchema.default([])),
  /** Seals secrets kept at rest (TOTP seeds, SSO client secrets). Changing it makes them unreadable. */
  SECRETS_ENCRYPTION_KEY: secretSchema(),
  ACCESS_TOKEN_TTL_SECONDS: z.coerce.number().int().min(60).max(86_400).default(3600),
  /** A session unused this long expires (auth.session.expired); 30 days unless set. */
  SESSION_IDLE_TIMEOUT_SECONDS: z.coerce.number().int().min(1).max(31_536_000).default(2_592_000),
  REFRESH_TOKEN_TTL_DAYS: z.coerce.number().int().min(1).max(365).default(30),
  /**
   * A refresh token presented again this soon after it was spent, by its session's device, is
   * answered with the pair it was spent for (two screens refreshing at once), not as a reuse.
   */
  REFRESH_REUSE_GRACE_SECONDS: z.coerce.number().int().min(0).max(300).default(30),
  FINANCE_URL: ServiceUrlSchema,
  CHAT_URL: ServiceUrlSchema,
  NOTIFICATIONS_URL: ServiceUrlSchema,
  AUDIT_URL: ServiceUrlSchema,
  BODY_LIMIT: z.string().default("1mb"),
  /** Requests per API key per window (signed-in sessions: SESSION_RATE_LIMIT_REQUESTS); shared by all gateway instances through REDIS_URL when set. */
  RATE_LIMIT_REQUESTS: z.coerce.number().int().min(1).default(1000),
  /**
   * Requests per user's signed-in sessions (bearer tokens, together) per window: Sure limits API
   * keys only, and its app spends about 55 requests on one pull-to-refresh, so the budget is one
   * no person reaches (a thousand refreshes an hour) and stops only a runaway client.
   */
  SESSION_RATE_LIMIT_REQUESTS: z.coerce.number().int().min(1).default(60_000),
  /**
   * Requests per family per window, every key and session of its members together, on top of each
   * credential's own limit: making more keys does not buy a family a larger share of the system.
   */
  FAMILY_RATE_LIMIT_REQUESTS: z.coerce.number().int().min(1).default(100_000),
  RATE_LIMIT_WINDOW_SECONDS: z.coerce.number().int().min(1).max(86_400).default(3600),
  /** Redis (redis:// or rediss://) holding the request counts of every gateway instance; unset, each instance counts in memory. */
  REDIS_URL: z
    .string()
    .regex(/^rediss?:\/\/\S+$/, { message: "must be a redis:// or rediss:// URL" })
    .optional(),
  /** Sign-ups (POST /api/v1/auth/signup) per client IP per window, counted in PostgreSQL (so shared by every instance). */
  SIGNUP_RATE_LIMIT_REQUESTS: z.coerce.number().int().min(1).default(10),
  SIGNUP_RATE_LIMIT_WINDOW_SECONDS: z.coerce.number().int().min(1).max(86_400).default(3600),
  /** How often expired identity rows (sessions, refresh tokens, SSO flows and tickets, login throttles) are purged; ±20 % jitter. */
  IDENTITY_SWEEP_INTERVAL_SECONDS: z.coerce.number().int().min(1).max(86_400).default(600),
  /** The gateway's public origin (e.g. https://hearth.example); unset = as each request reached it. SSO callbacks use it. */
  PUBLIC_URL: ServiceUrlSchema.optional(),
  /**
   * The providers Sure's mobile app may start at `/auth/mobile/{name}`, chosen by the operator as
   * Sure's are: `name=provider-id` pairs, comma separated (e.g. `google_oauth2=0190...`). Provider
   * names are a family's own, so a name alone never picks one: any family's admin could otherwise
   * claim `google_oauth2` and receive everyone's sign-ins.
   */
  SSO_MOBILE_PROVIDERS: z
    .string()
    .default("")
    .transform((list, ctx) => {
      const byName: Record<string, string> = {};
      for (const pair of list
        .split(",")
        .map((part) => part.trim())
        .filter(Boolean)) {
        const [name, id] = pair.split("=").map((part) => part.trim());
        if (!name || !/^[a-z0-9][a-z0-9_-]{0,49}$/.test(name) || !id || !z.uuid().safeParse(id).success) {
          ctx.addIssue({ code: "custom", message: `"${pair}" is not name=provider-id` });
          return z.NEVER;
        }
        byName[name] = id;
      }
      return byName;
    }),
  /** Deep links (or URLs) the app may ask SSO sign-in to return to; an exact match or a prefix ending in "/" or "?". */
  SSO_APP_REDIRECT_URIS: z
    .string()
    .default("hearth://oauth/callback,sureapp://oauth/callback")
    .transform((list) =>
      list
        .split(",")
        .map((uri) => uri.trim())
        .filter(Boolean),
    ),
  /**
   * "true" lets SSO providers (issuer, token and key endpoints) be on loopback and private networks
   * (10/8, 172.16/12, 192.168/16, 100.64/10, fc00::/7): an identity provider on the LAN. Link-local
   * and cloud metadata addresses stay refused either way.
   */
  SSO_ALLOW_PRIVATE_ISSUERS: z
    .enum(["true", "false"], { message: 'must be "true" or "false"' })
    .default("false")
    .transform((value) => value === "true"),
  /** SSO sign-in starts (GET /api/v1/auth/sso/:id/authorize) per client IP per window, counted in PostgreSQL. */
  SSO_AUTHORIZE_RATE_LIMIT_REQUESTS: z.coerce.number().int().min(1).default(30),
  SSO_AUTHORIZE_RATE_LIMIT_WINDOW_SECONDS: z.coerce.number().int().min(1).max(86_400).default(600),
  /** Express `trust proxy` setting: how many proxies in front of the gateway set X-Forwarded-For. */
  TRUST_PROXY: z.coerce.number().int().min(0).default(0),
});
export type GatewayConfig = z.output<typeof GatewayEnvSchema>;

export function signingKeysOf(config: GatewayConfig) {
  return { active: { kid: config.JWT_KEY_ID, secret: config.JWT_SECRET }, previous: config.JWT_PREVIOUS_KEYS.filter((key) => key.kid !== config.JWT_KEY_ID) };
}
