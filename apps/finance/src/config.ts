import { z } from "zod";
import { serviceEnvSchema } from "@hearth/service-kit";

export const FINANCE_DEFAULT_PORT = 4001;
export const FinanceEnvSchema = serviceEnvSchema(FINANCE_DEFAULT_PORT).extend({
  /**
   * `on` serves the internal bulk import (`ledger.import`) that the demo seeder and benchmarks use.
   * Off by default: a deployment has no use for it, so no internal token can reach it there.
   */
  LEDGER_IMPORT: z.enum(["on", "off"]).default("off"),
  /**
   * `true` lets provider connections (SimpleFIN Bridge) reach plain http and loopback or private
   * addresses: for tests and a bridge on the operator's own network. Off, only https URLs of public
   * addresses are reached; link-local and cloud metadata addresses are refused either way.
   */
  /** Megabytes of uploaded import files (imports and unpublished session chunks) one family may keep in all. */
  IMPORT_FAMILY_MAX_MB: z.coerce.number().int().min(1).max(1_000_000).default(512),
  PROVIDER_ALLOW_PRIVATE_HOSTS: z
    .enum(["true", "false"], { message: 'must be "true" or "false"' })
    .default("false")
    .transform((value) => value === "true"),
});
