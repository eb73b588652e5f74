import type { AuditEventType } from "@hearth/contracts";
import { buildAuditEvent, enqueueAuditEvent } from "@hearth/service-kit/events";
import type { IdentityTx } from "../db";
import type { RequestFacts } from "../local-handlers";

interface AuthEventInput {
  familyId: string | null;
  user: { id: string; email: string } | null;
  request: RequestFacts;
  sessionId?: string | null;
  error?: string;
}

const ACTION_OF: Partial<Record<AuditEventType, string>> = {
  "auth.login.success": "login",
  "auth.login.failed": "login",
  "auth.token.issued": "issue_token",
  "auth.token.refreshed": "refresh_token",
  "auth.token.revoked": "revoke_session",
  "auth.logout": "logout",
};

/** Writes an auth audit event into the outbox inside the caller's transaction. */
export function recordAuthEvent(tx: IdentityTx, eventType: AuditEventType, input: AuthEventInput): Promise<void> {
  return enqueueAuditEvent(
    tx,
    buildAuditEvent({
      eventType,
      familyId: input.familyId,
      user: input.user,
      provider: "local",
      request: { ...input.request, sessionId: input.sessionId ?? null },
      action: ACTION_OF[eventType] ?? eventType,
      resource: "session",
      error: input.error ?? null,
    }),
  );
}
