/**
 * Why a provider sync failed, as a stable category. Only these messages are stored and answered:
 * what the bridge said, its URLs and addresses never leave the worker (a claim URL's path is a
 * secret, and a bridge's text is no API).
 */
export const SYNC_FAILURE_MESSAGES = {
  token_refused: "The setup token was refused: it may have been used already or expired",
  credentials_rejected: "The bridge refused the connection's credentials",
  credentials_unreadable: "The connection's stored credentials could not be read",
  address_refused: "The bridge's address is not allowed",
  unreachable: "The bridge could not be reached",
  rate_limited: "The bridge is limiting requests",
  payment_required: "The bridge requires payment for this connection",
  bridge_error: "The bridge answered with an error",
  bad_response: "The bridge's answer could not be read",
  bridge_reported: "The bridge reported errors and sent no accounts",
  internal: "The sync could not be completed",
} as const;
export type SyncFailureCategory = keyof typeof SYNC_FAILURE_MESSAGES;

/** Failures only new credentials mend: the connection's status turns requires_update. */
const NEEDS_NEW_CREDENTIALS: ReadonlySet<SyncFailureCategory> = new Set(["token_refused", "credentials_rejected", "credentials_unreadable"]);

export class ProviderSyncFailure extends Error {
  constructor(readonly category: SyncFailureCategory) {
    super(SYNC_FAILURE_MESSAGES[category]);
    this.name = "ProviderSyncFailure";
  }

  get requiresUpdate(): boolean {
    return NEEDS_NEW_CREDENTIALS.has(this.category);
  }
}

/** What Sure shows for a run that lost its worker. */
export const STALE_SYNC_MESSAGE = "Sync became stale before completion";

/** A run's error as the connection's status and /syncs both show it: a failed run's category, Sure's words for a stale one. */
export function providerSyncErrorMessage(sync: { status: string; error: string | null }): string | null {
  if (sync.status === "failed") return sync.error ?? "Sync failed";
  if (sync.status === "stale") return STALE_SYNC_MESSAGE;
  return null;
}
