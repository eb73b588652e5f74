import { z } from "zod";
import { TimestampSchema, UuidSchema } from "../primitives";

/** The providers a family can connect; SimpleFIN Bridge is the one Hearth speaks. */
export const PROVIDER_CONNECTION_PROVIDERS = ["simplefin"] as const;

/** Connections one family may hold (each is polled by the sync worker). */
export const PROVIDER_CONNECTION_LIMIT = 25;

/** A connection's sync runs as Sure's Sync states them. */
export const PROVIDER_SYNC_STATUSES = ["pending", "syncing", "completed", "failed", "stale"] as const;

/** Sure's ProviderConnectionInstitution: the bank as the provider names it. */
export const ProviderConnectionInstitutionSchema = z.object({
  name: z.string().nullable(),
  domain: z.string().nullable(),
  url: z.string().nullable(),
});

/** Sure's ProviderConnectionAccounts: accounts the provider reported, and how many are linked to an account of the family. */
export const ProviderConnectionAccountsSchema = z.object({
  total_count: z.number().int().min(0),
  linked_count: z.number().int().min(0),
  unlinked_count: z.number().int().min(0),
});

/** Sure's ProviderConnectionSyncLatest: `error` only for a failed or stale run, its message a stable category (never the provider's text). */
export const ProviderConnectionSyncLatestSchema = z.object({
  id: UuidSchema,
  status: z.enum(PROVIDER_SYNC_STATUSES),
  created_at: TimestampSchema,
  syncing_at: TimestampSchema.nullable(),
  completed_at: TimestampSchema.nullable(),
  failed_at: TimestampSchema.nullable(),
  error: z.object({ present: z.literal(true), message: z.string().nullable() }).nullable(),
});

export const ProviderConnectionSyncSchema = z.object({
  syncing: z.boolean(),
  status_summary: z.string().nullable(),
  last_synced_at: TimestampSchema.nullable(),
  latest: ProviderConnectionSyncLatestSchema.nullable(),
});

/**
 * Sure's ProviderConnection: a status summary. Credentials, raw provider payloads and raw sync
 * errors are left out by design.
 */
export const ProviderConnectionSchema = z.object({
  id: UuidSchema,
  provider: z.enum(PROVIDER_CONNECTION_PROVIDERS),
  provider_type: z.string(),
  name: z.string(),
  status: z.enum(["good", "requires_update"]),
  requires_update: z.boolean(),
  credentials_configured: z.boolean(),
  scheduled_for_deletion: z.boolean(),
  pending_account_setup: z.boolean(),
  institution: ProviderConnectionInstitutionSchema,
  accounts: ProviderConnectionAccountsSchema,
  sync: ProviderConnectionSyncSchema,
  created_at: TimestampSchema,
  updated_at: TimestampSchema,
});
export type ProviderConnection = z.infer<typeof ProviderConnectionSchema>;

/**
 * The spec's `{data: [...]}`: every connection of the family, newest first. Creates stop at
 * PROVIDER_CONNECTION_LIMIT; the list answers whatever is stored (a family past it from before the
 * count was locked is listed whole, never refused).
 */
export const ProviderConnectionCollectionSchema = z.object({ data: z.array(ProviderConnectionSchema) });
export const ProviderConnectionResponseSchema = z.object({ data: ProviderConnectionSchema });

/**
 * Ours: registers a SimpleFIN Bridge connection by its one-time setup token (base64 of the claim
 * URL, claimed by the first sync) or by the access URL a token was already claimed for. Exactly one.
 */
export const ProviderConnectionCreateBodySchema = z.object({
  provider_connection: z
    .object({
      provider: z.enum(PROVIDER_CONNECTION_PROVIDERS),
      name: z.string().trim().min(1).max(255).optional(),
      setup_token: z.string().trim().min(1).max(4096).optional(),
      access_url: z.string().trim().min(1).max(2048).optional(),
    })
    .refine((connection) => (connection.setup_token === undefined) !== (connection.access_url === undefined), {
      message: "Give either setup_token or access_url",
      path: ["setup_token"],
    }),
});
