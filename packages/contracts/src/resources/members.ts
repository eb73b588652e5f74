import { z } from "zod";
import { RoleSchema } from "../context";
import { TimestampSchema, UuidSchema } from "../primitives";
import { EmailSchema, PasswordSchema } from "./auth";

/** A person of the family, as family members and admins see them. */
export const MemberSchema = z.object({
  id: UuidSchema,
  email: z.string(),
  first_name: z.string().nullable(),
  last_name: z.string().nullable(),
  role: RoleSchema,
  status: z.enum(["active", "suspended"]),
  mfa_enabled: z.boolean(),
  created_at: TimestampSchema,
});
export type Member = z.infer<typeof MemberSchema>;

export const MemberListSchema = z.object({ users: z.array(MemberSchema) });
export const MemberEnvelopeSchema = z.object({ user: MemberSchema });

const Name = z.string().trim().max(100);

/** Profile changes of the signed-in user; a new password or email needs the current password (if the account has one). */
export const UpdateProfileBodySchema = z.object({
  user: z.object({
    first_name: Name.nullable().optional(),
    last_name: Name.nullable().optional(),
    email: EmailSchema.optional(),
    ui_layout: z.enum(["dashboard", "intro"]).optional(),
    password: PasswordSchema.optional(),
    current_password: z.string().max(256).optional(),
  }),
});

export const UpdateRoleBodySchema = z.object({ role: RoleSchema });

/** An invitation to join the family; its code is shown once, at creation. */
export const InvitationSchema = z.object({
  id: UuidSchema,
  email: z.string(),
  role: RoleSchema,
  expires_at: TimestampSchema,
  accepted_at: TimestampSchema.nullable(),
  created_at: TimestampSchema,
});
export const CreatedInvitationSchema = InvitationSchema.extend({ invite_code: z.string() });
export const InvitationListSchema = z.object({ invitations: z.array(InvitationSchema) });
export const CreateInvitationBodySchema = z.object({
  invitation: z.object({ email: EmailSchema, role: RoleSchema.default("member") }),
});
