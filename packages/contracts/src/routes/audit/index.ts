import { auditLogsRoutes } from "./audit-logs";

/** The audit service. */
export const auditRoutes = { ...auditLogsRoutes };
