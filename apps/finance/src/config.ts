import { serviceEnvSchema } from "@hearth/service-kit";

export const FINANCE_DEFAULT_PORT = 4001;
export const FinanceEnvSchema = serviceEnvSchema(FINANCE_DEFAULT_PORT);
