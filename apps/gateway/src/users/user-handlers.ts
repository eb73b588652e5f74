import { AppError, type AuditChanges } from "@hearth/contracts";
import { isUniqueViolation } from "@hearth/service-kit";
import type { IdentityDb } from "../db";
import { NO_PASSWORD, type PasswordHasher } from "../auth/passwords";
import { revokeUserSessions } from "../auth/sessions";
import { FILTERED, recordIdentityEvent } from "../events/identity-events";
import { requireActor, type LocalHandler } from "../local-handlers";
import { assertAnotherActiveAdmin, lockFamily } from "./family-admins";
import { userResource } from "./user-resource";

export interface UserHandlerDeps {
  db: IdentityDb;
  passwords: PasswordHasher;
  onEventsWritten: () => void;
}

/** The signed-in user's own record: read, update, delete, opt in to AI. */
export function createUserHandlers({ db, passwords, onEventsWritten }: UserHandlerDeps) {
  const me: LocalHandler<"users.me"> = async ({ actor }) => ({
    user: userResource(await db.user.findUniqueOrThrow({ where: { id: requireActor(actor).userId } })),
  });

  /** Sure's opt-in to the AI assistant; idempotent. */
  const enableAi: LocalHandler<"auth.enableAi"> = async ({ actor }) => ({
    user: userResource(await db.user.update({ where: { id: requireActor(actor).userId }, data: { aiEnabled: true } })),
  });

  const updateMe: LocalHandler<"users.updateMe"> = async ({ actor, input, request }) => {
    const { userId, familyId, sessionId } = requireActor(actor);
    const user = await db.user.findUniqueOrThrow({ where: { id: userId } });
    const wanted = input.user;
    // An account made through SSO has no password yet: its first one needs only the signed-in session.
    const hasPassword = user.passwordHash !== NO_PASSWORD;
    if (hasPassword && (wanted.password !== undefined || wanted.email !== undefined) && !wanted.current_password) {
      throw AppError.validation(["Current password is required to change the email or password"]);
    }
    if (hasPassword && wanted.current_password !== undefined && !(await passwords.verify(user.passwordHash, wanted.current_password))) {
      throw AppError.validation(["Current password is invalid"]);
    }
    const changes: AuditChanges = {};
    const data: { firstName?: string | null; lastName?: string | null; email?: string; uiLayout?: string; passwordHash?: string } = {};
    const change = <K extends keyof typeof data>(field: string, key: K, old: (typeof data)[K], next: (typeof data)[K] | undefined) => {
      if (next === undefined || next === old) return;
      data[key] = next;
      changes[field] = { old, new: next };
    };
    change("first_name", "firstName", user.firstName, wanted.first_name === "" ? null : wanted.first_name);
    change("last_name", "lastName", user.lastName, wanted.last_name === "" ? null : wanted.last_name);
    change("email", "email", user.email, wanted.email);
    change("ui_layout", "uiLayout", user.uiLayout, wanted.ui_layout);
    if (wanted.password !== undefined) {
      data.passwordHash = await passwords.hash(wanted.password);
      changes["password"] = { old: FILTERED, new: FILTERED };
    }
    if (Object.keys(changes).length === 0) return { user: userResource(user) };
    try {
      const updated = await db.$transaction(async (tx) => {
        const saved = await tx.user.update({ where: { id: userId }, data });
        // A new password ends every other session: whoever knew the old one is signed out.
        if (data.passwordHash) await revokeUserSessions(tx, userId, "password_changed", new Date(), sessionId);
        await recordIdentityEvent(tx, "user.updated", { familyId, user: { id: userId, email: saved.email }, request, sessionId, changes });
        return saved;
      });
      onEventsWritten();
      return { user: userResource(updated) };
    } catch (err) {
      if (isUniqueViolation(err)) throw AppError.validation(["Email has already been taken"]);
      throw err;
    }
  };

  /**
   * Removes the user with their credentials. The last active admin of a family with other
   * members must name an heir first (promote one); a family's only member takes it along.
   */
  const deleteMe: LocalHandler<"users.deleteMe"> = async ({ actor, request }) => {
    const { userId, familyId, sessionId } = requireActor(actor);
    await db.$transaction(async (tx) => {
      await lockFamily(tx, familyId);
      const user = await tx.user.findUniqueOrThrow({ where: { id: userId }, include: { membership: true } });
      const others = await tx.membership.count({ where: { familyId, userId: { not: userId } } });
      if (others > 0 && user.membership?.role === "admin") {
        await assertAnotherActiveAdmin(tx, familyId, userId, "You are the family's last admin: promote another member to admin before deleting your account");
      }
      await recordIdentityEvent(tx, "user.deleted", { familyId, user: { id: user.id, email: user.email }, request, sessionId });
      await tx.user.delete({ where: { id: userId } });
      if (others === 0) await tx.family.delete({ where: { id: familyId } });
    });
    onEventsWritten();
  };

  return { "users.me": me, "auth.enableAi": enableAi, "users.updateMe": updateMe, "users.deleteMe": deleteMe };
}
