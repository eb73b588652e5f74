import { z } from "zod";
import { UuidSchema } from "../primitives";

/** Sure's MobileDevice allows these device types only. */
export const DeviceTypeSchema = z.enum(["ios", "android", "web"]);

/** What Hearth keeps of a device's name and versions. */
export const DEVICE_TEXT_KEPT = 255;
/** The longest device text read at all: a bound on hostile input, far above any phone's. */
const DEVICE_TEXT_READ = 1_000;

/**
 * A device's name or version as phones send them: Android's `Platform.operatingSystemVersion`
 * (the Sure app's `os_version`, device_service.dart) runs 60 to 100 characters and Sure sets no
 * limit, so a long one is accepted and kept to its first DEVICE_TEXT_KEPT characters, not refused.
 */
const DeviceTextSchema = z
  .string()
  .trim()
  .min(1)
  .max(DEVICE_TEXT_READ)
  .transform((text) => Array.from(text).slice(0, DEVICE_TEXT_KEPT).join(""));

export const DeviceSchema = z.object({
  // The device's identity (a session per user and device): refused past 255, never cut.
  device_id: z.string().trim().min(1).max(255),
  device_name: DeviceTextSchema,
  device_type: DeviceTypeSchema,
  os_version: DeviceTextSchema,
  app_version: DeviceTextSchema,
});
export type Device = z.infer<typeof DeviceSchema>;

const DEVICE_REQUIRED = 'Required: a missing or invalid device is answered 400 "Device information is required".';

/**
 * Sure answers a missing or invalid device 400 "Device information is required", after the
 * credentials (not the 422 of body validation): the body hands the handler `undefined` for it.
 */
function checkedByHandler<S extends z.ZodType>(schema: S) {
  return schema.optional().catch(undefined).meta({ description: DEVICE_REQUIRED });
}

/** A required field missing altogether is answered as Sure's model answers it blank. */
const blankIfMissing = (sentence: string) => (issue: { input?: unknown }) => (issue.input === undefined ? sentence : undefined);

export const EmailSchema = z
  .string({ error: blankIfMissing("Email can't be blank") })
  .trim()
  .toLowerCase()
  .min(1, { message: "Email can't be blank", abort: true })
  .pipe(z.email({ message: "Email is invalid" }))
  .pipe(z.string().max(254));

/**
 * Sure's rule and sentences (Api::V1::AuthController#validate_password): at least 8 characters
 * with upper and lower case, a digit and a symbol. Any symbol counts here; Sure's list is
 * `!@#$%^&*(),.?":{}|<>`, which refuses a password such as "Correct-horse-1".
 */
export const PasswordSchema = z
  .string({ error: blankIfMissing("Password can't be blank") })
  .min(1, { message: "Password can't be blank", abort: true })
  .min(8, { message: "Password must be at least 8 characters" })
  .max(256, { message: "Password is too long" })
  .refine((p) => /[a-z]/.test(p) && /[A-Z]/.test(p), { message: "Password must include both uppercase and lowercase letters" })
  .refine((p) => /\d/.test(p), { message: "Password must include at least one number" })
  .refine((p) => /[^A-Za-z0-9]/.test(p), { message: "Password must include at least one special character" });

export const SignupBodySchema = z.object({
  user: z.object({
    email: EmailSchema,
    password: PasswordSchema,
    first_name: z.string().trim().max(100).optional(),
    last_name: z.string().trim().max(100).optional(),
  }),
  device: checkedByHandler(DeviceSchema),
  invite_code: z.string().nullable().optional(),
});

/**
 * Sure looks the email up as given and checks the password against it: a malformed email or a
 * blank password is answered 401 "Invalid email or password" like any wrong pair, not 422.
 */
export const LoginBodySchema = z.object({
  email: z.string().trim().toLowerCase().max(254),
  password: z.string().max(1_024),
  otp_code: z.string().nullable().optional(),
  device: checkedByHandler(DeviceSchema),
});

export const RefreshBodySchema = z.object({
  // Blank is checked by the handler: Sure answers a missing refresh token 400, not 422.
  refresh_token: z.string().max(500).optional(),
  device: checkedByHandler(z.object({ device_id: z.string().min(1) })),
});

export const AuthUserSchema = z.object({
  id: UuidSchema,
  email: z.string(),
  first_name: z.string().nullable(),
  last_name: z.string().nullable(),
  ui_layout: z.enum(["dashboard", "intro"]),
  ai_enabled: z.boolean(),
});

export const TokenResponseSchema = z.object({
  access_token: z.string(),
  refresh_token: z.string(),
  token_type: z.literal("Bearer"),
  expires_in: z.number().int(),
  created_at: z.number().int(),
});

export type AuthUser = z.infer<typeof AuthUserSchema>;

export const AuthResponseSchema = TokenResponseSchema.extend({ user: AuthUserSchema });

/** `{ user }`: the answer of enable_ai and users/me. */
export const UserEnvelopeSchema = z.object({ user: AuthUserSchema });
