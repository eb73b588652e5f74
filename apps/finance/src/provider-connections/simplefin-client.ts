import type { LookupAddress } from "node:dns";
import { OutboundFailed, OutboundRefused, OutboundTooLarge, createOutboundHttp, type OutboundResponse } from "@hearth/service-kit";
import { ProviderSyncFailure } from "./provider-sync-failure";
import { CredentialsInvalid, checkedAccessUrl, type BridgeAccess } from "./simplefin-credentials";

export interface SimplefinClientOptions {
  /** PROVIDER_ALLOW_PRIVATE_HOSTS: plain http and loopback or private addresses are reached too. */
  allowPrivateHosts: boolean;
  /** For the claim POST, its answer included. */
  claimTimeoutMs: number;
  /** For the accounts GET, its whole answer included. */
  fetchTimeoutMs: number;
  /** The accounts answer is cut off past this many bytes and the sync fails. */
  maxResponseBytes: number;
  /** Every address of a host name; the system resolver unless set. */
  resolveHost?: (hostname: string) => Promise<LookupAddress[]>;
}

/** An access URL is a few hundred bytes; more from a claim is no access URL. */
const MAX_CLAIM_ANSWER_BYTES = 4096;

/** A refused destination, or a request that failed on the way, as the sync's failure category. */
function failureOf(err: unknown): ProviderSyncFailure {
  if (err instanceof ProviderSyncFailure) return err;
  if (err instanceof OutboundRefused) return new ProviderSyncFailure("address_refused");
  if (err instanceof OutboundTooLarge) return new ProviderSyncFailure("bad_response");
  if (err instanceof OutboundFailed) return new ProviderSyncFailure("unreachable");
  // The resolver's own errors (ENOTFOUND and the like) are an unreachable bridge too.
  return new ProviderSyncFailure("unreachable");
}

/** A non-200 answer of the accounts endpoint (SimpleFIN: 403 for a revoked access URL, 402 unpaid). */
function accountsFailureOf(status: number): ProviderSyncFailure {
  if (status === 401 || status === 403) return new ProviderSyncFailure("credentials_rejected");
  if (status === 402) return new ProviderSyncFailure("payment_required");
  if (status === 429) return new ProviderSyncFailure("rate_limited");
  return new ProviderSyncFailure("bridge_error");
}

/**
 * Speaks SimpleFIN's protocol to a bridge (https://www.simplefin.org/protocol.html) through the
 * service kit's outbound client: every address a host resolves to is checked and pinned, https
 * only and public addresses only unless the operator allows otherwise, each exchange under a
 * deadline and a byte cap. No redirect is followed: the authorization header must not travel on.
 * Failures are ProviderSyncFailure categories; nothing the bridge said is kept.
 */
export function createSimplefinClient(options: SimplefinClientOptions) {
  const http = createOutboundHttp({
    allowPrivateAddresses: options.allowPrivateHosts,
    httpsOnly: !options.allowPrivateHosts,
    ...(options.resolveHost ? { resolveHost: options.resolveHost } : {}),
  });

  async function send(url: string, init: Parameters<typeof http.fetch>[1]): Promise<OutboundResponse> {
    try {
      return await http.fetch(url, { ...init, maxRedirects: 0 });
    } catch (err) {
      throw failureOf(err);
    }
  }

  return {
    /**
     * The form of a destination (scheme, length, a literal address): throws OutboundRefused with
     * why, before anything is stored. A host name's addresses are checked when it is reached.
     */
    checkDestination(url: string): void {
      http.checkUrl(url);
    },

    /** Trades a setup token's claim URL for the access URL (once: the bridge answers 403 to a used token). */
    async claim(claimUrl: string, signal?: AbortSignal): Promise<string> {
      const res = await send(claimUrl, {
        method: "POST",
        body: "",
        maxBytes: MAX_CLAIM_ANSWER_BYTES,
        timeoutMs: options.claimTimeoutMs,
        ...(signal ? { signal } : {}),
      });
      if (res.status === 403 || res.status === 404) throw new ProviderSyncFailure("token_refused");
      if (res.status !== 200) throw new ProviderSyncFailure("bridge_error");
      try {
        return checkedAccessUrl(res.body.toString("utf8"));
      } catch (err) {
        if (err instanceof CredentialsInvalid) throw new ProviderSyncFailure("bad_response");
        throw err;
      }
    },

    /**
     * GET /accounts with the transactions posted since `since`; the parsed JSON, unchecked. Pending
     * transactions are not asked for (no `pending=1`): they are written once posted.
     */
    async accounts(access: BridgeAccess, since: Date, signal?: AbortSignal): Promise<unknown> {
      const url = `${access.baseUrl}/accounts?start-date=${Math.floor(since.getTime() / 1000)}`;
      const res = await send(url, {
        method: "GET",
        headers: { authorization: access.authorization, accept: "application/json" },
        maxBytes: options.maxResponseBytes,
        timeoutMs: options.fetchTimeoutMs,
        ...(signal ? { signal } : {}),
      });
      if (res.status !== 200) throw accountsFailureOf(res.status);
      try {
        return JSON.parse(res.body.toString("utf8")) as unknown;
      } catch {
        throw new ProviderSyncFailure("bad_response");
      }
    },
  };
}
export type SimplefinClient = ReturnType<typeof createSimplefinClient>;
