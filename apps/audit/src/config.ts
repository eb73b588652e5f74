import { serviceEnvSchema } from "@hearth/service-kit";

export const AUDIT_DEFAULT_PORT = 4004;
export const AuditEnvSchema = serviceEnvSchema(AUDIT_DEFAULT_PORT);
