import { z } from "zod";
import { TimestampSchema, UuidSchema } from "../primitives";

export const PushEnvironmentSchema = z.enum(["sandbox", "production"]);
export const PushPlatformSchema = z.enum(["ios"]);

export const PushSubscriptionSchema = z.object({
  id: UuidSchema,
  environment: PushEnvironmentSchema,
  platform: PushPlatformSchema,
  last_registered_at: TimestampSchema,
});
export type PushSubscription = z.infer<typeof PushSubscriptionSchema>;

/** Spec section 4 rule 2: APNs-style token, 64 to 200 lowercase hexadecimal characters. */
export const PushTokenSchema = z.string().regex(/^[0-9a-f]{64,200}$/, { message: "Token must be 64 to 200 lowercase hexadecimal characters" });

export const RegisterPushSubscriptionBodySchema = z.object({
  token: PushTokenSchema,
  environment: PushEnvironmentSchema,
  platform: PushPlatformSchema,
});
