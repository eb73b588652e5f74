import { z } from "zod";
import { AuditEventSchema } from "./events/audit-events";
import { UuidSchema } from "./primitives";
import { BudgetLinesSchema } from "./resources/budgets";
import { GetIncomeStatementArgsSchema, GetIncomeStatementResultSchema } from "./resources/assistant-tools";
import {
  AssistantToolCallInputSchema,
  AssistantToolCallResultSchema,
  AssistantToolListInputSchema,
  AssistantToolListSchema,
} from "./resources/assistant-tool-calls";
import { FamilyExportChunkInputSchema, FamilyExportChunkSchema } from "./resources/family-exports";
import { FamilyDataCountsInputSchema, FamilyDataCountsSchema, FamilyPurgeInputSchema, FamilyPurgeResultSchema } from "./resources/family-reset";
import { LedgerImportResultSchema, LedgerImportSchema } from "./resources/ledger-import";
import { MessageProgressInputSchema, MessageProgressSchema } from "./resources/chats";

export * from "./resources/ledger-import";

/**
 * Internal procedures: called service to service, never routed from the public API.
 * `actor: "none"` ones act for no user (a token minted for a user's request cannot reach them);
 * `actor: "required"` ones act for the signed actor's family, like public routes, but are only
 * reachable with the internal secret (developer tools on the same machine).
 * `audit.events.ingest` is the delivery target of the outbox relay when no Kafka is configured.
 */
/** Events one `audit.events.ingest` call takes at most (the relay splits larger batches). */
export const AUDIT_INGEST_MAX_EVENTS = 500;

/**
 * What every service holding family data serves to the gateway's purger: `familyData.purge`
 * removes a step's worth of a family's rows (called until it answers done), `familyData.counts`
 * reports what is left, for GET /api/v1/users/reset/status.
 */
const familyDataProcedures = {
  "familyData.purge": { actor: "none", input: FamilyPurgeInputSchema, output: FamilyPurgeResultSchema },
  "familyData.counts": { actor: "none", input: FamilyDataCountsInputSchema, output: FamilyDataCountsSchema },
} as const;

/** Whether a family has the AI assistant on (its settings' ai_enabled): `familySettings.aiEnabled`. */
export const FamilyAiSwitchSchema = z.object({ ai_enabled: z.boolean() });
/** What a user is told when their family has the assistant off (the gateway's gate, an answer that finds it off). */
export const FAMILY_AI_OFF = "AI features are turned off for this family";

export const internalProcedures = {
  audit: {
    "events.ingest": {
      actor: "none",
      input: z.object({ events: z.array(AuditEventSchema).min(1).max(AUDIT_INGEST_MAX_EVENTS) }),
      output: z.object({ stored: z.number().int().min(0), duplicates: z.number().int().min(0) }),
    },
  },
  finance: {
    /** Years of history in bulk for the demo seeder and benchmarks; balances follow from the next sync. */
    "ledger.import": {
      actor: "required",
      input: LedgerImportSchema,
      output: LedgerImportResultSchema,
    },
    ...familyDataProcedures,
    /** One slice of a completed export's ZIP, for the gateway's signed download URL (the signature carries the family). */
    "familyExports.chunk": { actor: "none", input: FamilyExportChunkInputSchema, output: FamilyExportChunkSchema },
    /** The actor's family's income and spending over a period by category, merchant or tag (the assistant's get_income_statement). */
    "insights.incomeStatement": { actor: "required", input: GetIncomeStatementArgsSchema, output: GetIncomeStatementResultSchema },
    /** Every line of one of the actor's family's budgets with its figures, computed once for all (the assistant's get_budget). */
    /** Whether the actor's family has the AI assistant on (family settings' ai_enabled), for the gateway's gate of chat routes. */
    "familySettings.aiEnabled": { actor: "required", input: z.object({}), output: FamilyAiSwitchSchema },
    "insights.budgetLines": {
      actor: "required",
      input: z.object({ budget_id: UuidSchema }),
      output: BudgetLinesSchema,
    },
  },
  chat: {
    ...familyDataProcedures,
    /** What is new in an answer, for the gateway's stream of it (GET /api/v1/chats/:chat_id/messages/:id/stream). */
    "messages.progress": { actor: "required", input: MessageProgressInputSchema, output: MessageProgressSchema },
    /** The assistant's tools the actor's credential may call, for the gateway's MCP endpoint (POST /mcp). */
    "assistantTools.list": { actor: "required", input: AssistantToolListInputSchema, output: AssistantToolListSchema },
    /** One call of an assistant tool for the actor's family, outside any chat (nothing is stored). */
    "assistantTools.call": { actor: "required", input: AssistantToolCallInputSchema, output: AssistantToolCallResultSchema },
  },
  notifications: familyDataProcedures,
} as const;
