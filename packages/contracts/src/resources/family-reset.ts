import { z } from "zod";
import { UuidSchema } from "../primitives";

/**
 * Sure's ResetStatusResponse counts: every key Sure reports, whether or not Hearth has that kind
 * of record (those it lacks are honestly 0), plus what Hearth holds beyond Sure's list
 * (securities, prices, exchange rates, chats, push subscriptions...).
 */
export const SURE_RESET_COUNT_KEYS = [
  "account_statements",
  "family_exports",
  "imports",
  "import_sessions",
  "import_source_mappings",
  "import_rows",
  "import_mappings",
  "accounts",
  "account_shares",
  "account_providers",
  "entries",
  "transactions",
  "transfers",
  "rejected_transfers",
  "valuations",
  "trades",
  "holdings",
  "balances",
  "recurring_transactions",
  "rules",
  "rule_actions",
  "rule_conditions",
  "rule_runs",
  "budgets",
  "budget_categories",
  "categories",
  "tags",
  "taggings",
  "merchants",
  "family_merchant_associations",
  "provider_items",
  "active_storage_attachments",
  "plaid_items",
] as const;

const Count = z.number().int().min(0);
export const ResetCountsSchema = z.record(z.string(), Count);

/** DELETE /api/v1/users/reset: Sure's ResetInitiatedResponse (job_id names the reset, informational). */
export const ResetInitiatedSchema = z.object({
  message: z.string(),
  status: z.literal("queued"),
  job_id: z.string(),
  family_id: UuidSchema,
  status_url: z.string(),
});

/** GET /api/v1/users/reset/status: Sure's ResetStatusResponse, a snapshot of what the family still holds. */
export const ResetStatusSchema = z.object({
  status: z.enum(["complete", "data_remaining"]),
  family_id: UuidSchema,
  reset_complete: z.boolean(),
  counts: ResetCountsSchema,
});

/**
 * The services that keep a family's data, and what each is asked to remove: `financial_data`
 * (a reset: the family and its members stay, so do its settings) or `everything` (the family was deleted).
 */
export const FAMILY_DATA_SERVICES = ["finance", "chat", "notifications"] as const;
export type FamilyDataService = (typeof FAMILY_DATA_SERVICES)[number];
export const FamilyPurgeScopeSchema = z.enum(["financial_data", "everything"]);
export type FamilyPurgeScope = z.infer<typeof FamilyPurgeScopeSchema>;

/** One step of a purge: the service removes what it can within its time budget and says whether anything is left. */
export const FamilyPurgeInputSchema = z.object({ familyId: UuidSchema, scope: FamilyPurgeScopeSchema });
export const FamilyPurgeResultSchema = z.object({ done: z.boolean(), deleted: Count });
export const FamilyDataCountsInputSchema = z.object({ familyId: UuidSchema });
export const FamilyDataCountsSchema = z.object({ counts: ResetCountsSchema });
