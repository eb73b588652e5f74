import type { AuditChanges, AuditEventType } from "@hearth/contracts";
import { buildAuditEvent } from "@hearth/service-kit/events";
import type { RequestFacts } from "../local-handlers";

/** A request's facts, or nulls for what happens in the background (an idle session's sweep). */
export type EventRequestFacts = Pick<RequestFacts, "ipAddress" | "userAgent"> & { requestId: string | null };

/** How `changes` show a secret that changed (a password, a client secret): never its value. */
export const FILTERED = "[FILTERED]";

/** What an identity event says beyond the request it came from. */
export interface IdentityEventFacts {
  familyId: string | null;
  /** Who the event is about (the user who logged in, the member suspended...). */
  user: { id: string; email: string } | null;
  sessionId?: string | null;
  /** "local" for password logins, else the SSO provider's name. */
  provider?: string;
  /** The SSO provider's id, for provider.* and SSO sign-in events (the audit log filters by it). */
  providerId?: string | null;
  error?: string;
  /** {field: {old, new}} of an update; never a secret. */
  changes?: AuditChanges;
}

export type IdentityAuditEvent = ReturnType<typeof buildAuditEvent>;

const ACTION_OF: Partial<Record<AuditEventType, string>> = {
  "auth.login.success": "login",
  "auth.login.failed": "login",
  "auth.token.issued": "issue_token",
  "auth.token.refreshed": "refresh_token",
  "auth.token.revoked": "revoke_session",
  "auth.session.expired": "expire_session",
  "auth.logout": "logout",
  "user.updated": "update",
  "user.deleted": "delete",
  "user.suspended": "suspend",
  "user.reactivated": "reactivate",
  "user.roles.updated": "update_roles",
};

/** The audited resource: auth.* concern a session, user.* a user, provider.* a provider, account.* an identity link. */
function resourceOf(eventType: AuditEventType): string {
  const family = eventType.split(".")[0];
  if (family === "auth") return "session";
  if (family === "account") return "identity";
  return family ?? "session";
}

/** The audit event of an identity fact, stamped with the request it came from. */
export function toIdentityAuditEvent(eventType: AuditEventType, facts: IdentityEventFacts, request: EventRequestFacts): IdentityAuditEvent {
  return buildAuditEvent({
    eventType,
    familyId: facts.familyId,
    user: facts.user,
    provider: facts.provider ?? "local",
    providerId: facts.providerId ?? null,
    request: { ...request, sessionId: facts.sessionId ?? null },
    action: ACTION_OF[eventType] ?? eventType.split(".").slice(1).join("_"),
    resource: resourceOf(eventType),
    error: facts.error ?? null,
    changes: facts.changes ?? null,
  });
}
