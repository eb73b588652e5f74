import { z } from "zod";
import { serviceEnvSchema } from "@hearth/service-kit";

export const FINANCE_DEFAULT_PORT = 4001;
export const FinanceEnvSchema = serviceEnvSchema(FINANCE_DEFAULT_PORT).extend({
  /**
   * `on` serves the internal bulk import (`ledger.import`) that the demo seeder and benchmarks use.
   * Off by default: a deployment has no use for it, so no internal token can reach it there.
   */
  LEDGER_IMPORT: z.enum(["on", "off"]).default("off"),
});
