import { z } from "zod";
import { AuditEventSchema } from "./events/audit-events";

/**
 * Internal procedures: called service to service, never routed from the public API.
 * `audit.events.ingest` is the delivery target of the outbox relay when no Kafka is configured.
 */
export const internalProcedures = {
  audit: {
    "events.ingest": {
      input: z.object({ events: z.array(AuditEventSchema).min(1).max(500) }),
      output: z.object({ stored: z.number().int().min(0), duplicates: z.number().int().min(0) }),
    },
  },
} as const;
