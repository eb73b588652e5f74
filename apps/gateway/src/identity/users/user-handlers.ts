import { AppError, FAMILY_DATA_SERVICES, type AuditChanges } from "@hearth/contracts";
import { isUniqueViolation } from "@hearth/service-kit";
import type { FamilyPurgeRepository } from "../../family-data/family-purge-repository";
import { FILTERED } from "../audit/identity-event";
import type { WithIdentityEvents } from "../audit/identity-events";
import type { LoginThrottle } from "../auth/login-throttle";
import { NO_PASSWORD, type PasswordHasher } from "../auth/passwords";
import { requireActor, type LocalHandler } from "../local-handlers";
import { requireAnotherActiveAdmin } from "../members/family-admins";
import type { MemberRepository } from "../members/member-repository";
import type { SessionRepository } from "../sessions/session-repository";
import type { UserChanges, UserRepository } from "./user-repository";
import { toUserResource } from "./user-resource";

export interface UserHandlerDeps {
  users: UserRepository;
  members: MemberRepository;
  sessions: SessionRepository;
  passwords: PasswordHasher;
  /** current_password is a password guess like a login's: counted against the account and the IP the same way. */
  throttle: LoginThrottle;
  withIdentityEvents: WithIdentityEvents;
  /** A family deleted with its last member has its data purged from every service. */
  purges: FamilyPurgeRepository;
  onFamilyPurgeQueued: () => void;
}

/** The signed-in user's own record: read, update, delete, opt in to AI. */
export function createUserHandlers({ users, members, sessions, passwords, throttle, withIdentityEvents, purges, onFamilyPurgeQueued }: UserHandlerDeps) {
  const me: LocalHandler<"users.me"> = async ({ actor }) => ({ user: toUserResource(await users.find(requireActor(actor).userId)) });

  /** Sure's opt-in to the AI assistant; idempotent. */
  const enableAi: LocalHandler<"auth.enableAi"> = async ({ actor }) => ({ user: toUserResource(await users.enableAi(requireActor(actor).userId)) });

  const updateMe: LocalHandler<"users.updateMe"> = async ({ actor, input, request }) => {
    const { userId, familyId, sessionId } = requireActor(actor);
    const user = await users.find(userId);
    const wanted = input.user;
    // An account made through SSO has no password yet: its first one needs only the signed-in session.
    const hasPassword = user.passwordHash !== NO_PASSWORD;
    if (hasPassword && (wanted.password !== undefined || wanted.email !== undefined) && !wanted.current_password) {
      throw AppError.validation(["Current password is required to change the email or password"]);
    }
    if (hasPassword && wanted.current_password !== undefined) {
      // Counted before it is checked (429 while locked), so a stolen session cannot guess the password here.
      await throttle.admitLogin(user.email, request.ipAddress);
      if (!(await passwords.verify(user.passwordHash, wanted.current_password))) throw AppError.validation(["Current password is invalid"]);
      await throttle.recordSuccess(user.email, request.ipAddress);
    }
    const changes: AuditChanges = {};
    const data: UserChanges = {};
    const change = <K extends keyof UserChanges>(field: string, key: K, old: UserChanges[K], next: UserChanges[K] | undefined) => {
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
    if (Object.keys(changes).length === 0) return { user: toUserResource(user) };
    try {
      const updated = await withIdentityEvents(request, async (tx, record) => {
        const saved = await users.update(tx, userId, data);
        // A new password ends every other session: whoever knew the old one is signed out.
        if (data.passwordHash) await sessions.revokeAllOfUser(tx, userId, "password_changed", new Date(), sessionId);
        record("user.updated", { familyId, user: { id: userId, email: saved.email }, sessionId, changes });
        return saved;
      });
      return { user: toUserResource(updated) };
    } catch (err) {
      if (isUniqueViolation(err)) throw AppError.taken("Email");
      throw err;
    }
  };

  /**
   * Removes the user with their credentials. The last active admin of a family with other
   * members must name an heir first (promote one); a family's only member takes it along, and
   * the family's data in every service is purged in the background (queued in this transaction).
   * By bearer token or API key (write scope), answered as Sure's users#destroy.
   */
  const deleteMe: LocalHandler<"users.deleteMe"> = async ({ actor, request }) => {
    const { userId, familyId, sessionId } = requireActor(actor);
    const familyDeleted = await withIdentityEvents(request, async (tx, record) => {
      await members.lockFamily(tx, familyId);
      const user = await users.findWithMembership(tx, userId);
      const others = await members.otherMembers(tx, familyId, userId);
      if (others > 0 && user.membership?.role === "admin") {
        requireAnotherActiveAdmin(
          await members.otherActiveAdmins(tx, familyId, userId),
          "You are the family's last admin: promote another member to admin before deleting your account",
        );
      }
      record("user.deleted", { familyId, user: { id: user.id, email: user.email }, sessionId });
      await users.delete(tx, userId);
      if (others > 0) return false;
      await members.deleteFamily(tx, familyId);
      await purges.create(tx, { familyId, kind: "family_deleted", requestedById: userId, services: FAMILY_DATA_SERVICES });
      return true;
    });
    if (familyDeleted) onFamilyPurgeQueued();
    return { message: "Account has been deleted" };
  };

  return { "users.me": me, "auth.enableAi": enableAi, "users.updateMe": updateMe, "users.deleteMe": deleteMe };
}
