import { expect } from "vitest";
import type { ApiClient } from "./api-client";
import { eventually } from "./eventually";
import type { TestSystem } from "./start-system";

export interface AuditEntry {
  id: string;
  eventType: string;
  severity: string;
  user: { id: string; email: string } | null;
  requestId: string | null;
  [field: string]: unknown;
}

/** Waits until the admin sees exactly `count` entries matching the query in the audit log. */
export function expectAuditEntries(api: ApiClient, token: string, query: string, count: number, timeoutMs = 30_000): Promise<AuditEntry[]> {
  return eventually(
    async () => {
      const res = await api.get(`/api/v1/audit-logs?${query}`, { token });
      expect(res.status).toBe(200);
      expect(res.body).toHaveLength(count);
      return res.body as AuditEntry[];
    },
    { timeoutMs },
  );
}

/** Rows of the gateway's outbox not yet delivered. */
export function pendingOutboxCount(system: TestSystem): Promise<number> {
  return system.db.gateway.outboxEvent.count({ where: { publishedAt: null } });
}
