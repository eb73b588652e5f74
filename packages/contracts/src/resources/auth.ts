import { z } from "zod";
import { UuidSchema } from "../primitives";

/** Sure's MobileDevice allows these device types only. */
export const DeviceTypeSchema = z.enum(["ios", "android", "web"]);

export const DeviceSchema = z.object({
  device_id: z.string().trim().min(1).max(255),
  device_name: z.string().trim().min(1).max(255),
  device_type: DeviceTypeSchema,
  os_version: z.string().trim().min(1).max(50),
  app_version: z.string().trim().min(1).max(50),
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

export const EmailSchema = z
  .string()
  .trim()
  .toLowerCase()
  .pipe(z.email({ message: "Email is invalid" }))
  .pipe(z.string().max(254));

/** Sure's rule: at least 8 characters with upper and lower case, a digit and a symbol. */
export const PasswordSchema = z
  .string()
  .min(8, { message: "Password must be at least 8 characters" })
  .max(256, { message: "Password is too long" })
  .refine((p) => /[a-z]/.test(p) && /[A-Z]/.test(p), { message: "Password must contain upper and lower case letters" })
  .refine((p) => /\d/.test(p), { message: "Password must contain a number" })
  .refine((p) => /[^A-Za-z0-9]/.test(p), { message: "Password must contain a special character" });

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

export const LoginBodySchema = z.object({
  email: EmailSchema,
  password: z.string().min(1, { message: "Password can't be blank" }).max(256),
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
