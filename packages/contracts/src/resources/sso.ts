import { z } from "zod";
import { RoleSchema } from "../context";
import { TimestampSchema, UuidSchema } from "../primitives";
import { DeviceSchema, EmailSchema } from "./auth";

/** Sure's provider names too: its app starts Google sign-in as `google_oauth2` (login_screen.dart 388). */
const ProviderName = z
  .string()
  .trim()
  .regex(/^[a-z0-9][a-z0-9_-]{0,49}$/, { message: "Name must be 1 to 50 lowercase letters, digits, dashes or underscores" });
const IssuerUrl = z.url({ protocol: /^https?$/, message: "Issuer must be an http(s) URL" }).max(500);
const ClaimValues = z.array(z.string().trim().min(1).max(200)).max(50);

/** An OpenID Connect provider a family signs in with. The client secret is never shown again. */
export const SsoProviderSchema = z.object({
  id: UuidSchema,
  name: z.string(),
  issuer: z.string(),
  client_id: z.string(),
  scopes: z.string(),
  enabled: z.boolean(),
  /** Just-in-time creation of family members on their first sign-in. */
  allow_account_creation: z.boolean(),
  default_role: RoleSchema,
  /** A claim of the ID token (e.g. `groups`) whose values set the role at every sign-in. */
  role_claim: z.string().nullable(),
  admin_claim_values: z.array(z.string()),
  created_at: TimestampSchema,
  updated_at: TimestampSchema,
});
export type SsoProvider = z.infer<typeof SsoProviderSchema>;
export const SsoProviderListSchema = z.object({ sso_providers: z.array(SsoProviderSchema) });

const ProviderSettings = z.object({
  name: ProviderName,
  issuer: IssuerUrl,
  client_id: z.string().trim().min(1, { message: "Client id can't be blank" }).max(500),
  client_secret: z.string().min(1, { message: "Client secret can't be blank" }).max(2000),
  scopes: z
    .string()
    .trim()
    .regex(/^[\x21-\x7e]+( [\x21-\x7e]+)*$/, { message: "Scopes must be space-separated" })
    .refine((scopes) => scopes.split(" ").includes("openid"), { message: "Scopes must include openid" })
    .default("openid email profile"),
  allow_account_creation: z.boolean().default(false),
  default_role: RoleSchema.default("member"),
  role_claim: z.string().trim().min(1).max(100).nullable().default(null),
  admin_claim_values: ClaimValues.default([]),
});

export const CreateSsoProviderBodySchema = z.object({
  sso_provider: ProviderSettings.extend({ enabled: z.boolean().default(true) }),
});

/** Every field may change; enabling and disabling have their own endpoints (and events). */
export const UpdateSsoProviderBodySchema = z.object({
  sso_provider: z
    .object({
      name: ProviderName,
      issuer: IssuerUrl,
      client_id: ProviderSettings.shape.client_id,
      client_secret: ProviderSettings.shape.client_secret,
      scopes: ProviderSettings.shape.scopes.removeDefault(),
      allow_account_creation: z.boolean(),
      default_role: RoleSchema,
      role_claim: z.string().trim().min(1).max(100).nullable(),
      admin_claim_values: ClaimValues,
    })
    .partial(),
});

/** Where the app wants the browser sent back (a deep link), and the device to sign in on. */
export const SsoAuthorizeQuerySchema = DeviceSchema.extend({ redirect_uri: z.string().min(1).max(2000) });
export const SsoAuthorizeResponseSchema = z.object({ authorization_url: z.string() });

/** Sure's mobile SSO start (`/auth/mobile/:provider`): the provider by its name. */
export const MobileSsoStartParamsSchema = z.object({ provider: z.string().min(1).max(100) });
const optionalText = z.string().max(1_000).optional().catch(undefined);
/**
 * The device as Sure's app puts it in the query (auth_service.dart 403-416). Opened in a browser:
 * nothing here is refused with a JSON error; the handler sends the browser back to the app with
 * `error` and `message` instead, as Sure's `mobile_sso_redirect` does.
 */
export const MobileSsoStartQuerySchema = z.object({
  device_id: optionalText,
  device_name: optionalText,
  device_type: optionalText,
  os_version: optionalText,
  app_version: optionalText,
});
/** What Sure's mobile_sso_start requires of the device: its id, name and type; the versions may be left out. */
export const MobileSsoDeviceSchema = DeviceSchema.partial({ os_version: true, app_version: true });
export const SsoTestBodySchema = z.object({ redirect_uri: z.string().min(1).max(2000) });

/** What the provider sends the browser back with (RFC 6749 section 4.1.2). */
export const SsoCallbackQuerySchema = z.object({
  state: z.string().max(200).optional(),
  code: z.string().max(2000).optional(),
  error: z.string().max(200).optional(),
  error_description: z.string().max(1000).optional(),
  iss: z.string().max(500).optional(),
});
export const RedirectSchema = z.object({ location: z.string() });

// Blank codes are checked by the handlers: Sure answers them 401 (exchange) and 400 (linking).
export const SsoExchangeBodySchema = z.object({ code: z.string().max(200).optional() });
export const SsoLinkBodySchema = z.object({
  linking_code: z.string().max(200).optional(),
  email: EmailSchema,
  password: z.string().min(1, { message: "Password can't be blank" }).max(256),
});
export const SsoCreateAccountBodySchema = z.object({
  linking_code: z.string().max(200).optional(),
  first_name: z.string().trim().max(100).optional(),
  last_name: z.string().trim().max(100).optional(),
});

export const SsoIdentitySchema = z.object({
  id: UuidSchema,
  provider_id: UuidSchema,
  provider: z.string(),
  email: z.string().nullable(),
  created_at: TimestampSchema,
  last_login_at: TimestampSchema.nullable(),
});
export const SsoIdentityListSchema = z.object({ sso_identities: z.array(SsoIdentitySchema) });
