import { defineResourceRoutes } from "../define-resource-routes";
import { AuditLogListSchema, AuditLogQuerySchema } from "../../events/audit-events";

export const auditLogsRoutes = defineResourceRoutes("audit", "auditLogs", {
  list: {
    method: "GET",
    path: "/api/v1/audit-logs",
    summary: "SSO audit log of your family (admins only, newest first)",
    tag: "Audit",
    query: AuditLogQuerySchema,
    response: AuditLogListSchema,
    status: 200,
    access: { auth: "bearer", scope: "read", role: "admin" },
  },
});
