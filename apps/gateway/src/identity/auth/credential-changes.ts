import pg from "pg";
import type { Logger } from "@hearth/service-kit";
import { CREDENTIAL_CHANNEL } from "./credential-announcements";

export interface CredentialChangeFeed {
  start(): Promise<void>;
  stop(): Promise<void>;
}

/** How often the feed asks its connection for an answer, and how long it waits for one. */
export const HEARTBEAT = { everyMs: 5_000, timeoutMs: 2_000 };

/**
 * Listens for credential changes (PostgreSQL LISTEN on its own connection, outside the pool) and
 * tells `onChange` the user each concerns. `onLive(false)` when the connection is lost, before
 * anything may have been missed; `onLive(true)` once listening again. Reconnects with backoff.
 * A connection can also die in silence (a peer or a network path gone without a reset): a
 * heartbeat query that gets no answer in time counts as lost, so the cache stops trusting a feed
 * that may miss a revocation within seconds rather than when TCP gives up, minutes later.
 */
export function createCredentialChangeFeed(options: {
  databaseUrl: string;
  log: Logger;
  onChange: (userId: string) => void;
  onLive: (live: boolean) => void;
  heartbeat?: { everyMs: number; timeoutMs: number };
}): CredentialChangeFeed {
  const heartbeat = options.heartbeat ?? HEARTBEAT;
  let client: pg.Client | undefined;
  let stopped = false;
  let retry: NodeJS.Timeout | undefined;
  let delayMs = 100;

  async function connect(): Promise<void> {
    const next = new pg.Client({
      connectionString: options.databaseUrl,
      application_name: "gateway-credential-feed",
      keepAlive: true,
      keepAliveInitialDelayMillis: 10_000,
    });
    let lost = false;
    let beat: NodeJS.Timeout | undefined = undefined; // set once listening; read by onLost before that
    const onLost = (err?: Error) => {
      if (lost) return;
      lost = true;
      clearInterval(beat);
      options.onLive(false);
      next.removeAllListeners("notification");
      // A connection that died in silence never answers the goodbye: its socket is destroyed.
      const ending = setTimeout(() => (next as unknown as { connection?: { stream?: { destroy(): void } } }).connection?.stream?.destroy(), 1_000);
      ending.unref();
      void next
        .end()
        .catch(() => {})
        .finally(() => clearTimeout(ending));
      if (client === next) client = undefined;
      if (stopped) return;
      options.log.warn({ err }, "credential change feed lost; authenticating from the database until it is back");
      schedule();
    };
    next.on("error", onLost);
    next.on("end", () => onLost());
    next.on("notification", (message) => {
      if (message.channel === CREDENTIAL_CHANNEL && message.payload) options.onChange(message.payload);
    });
    try {
      await next.connect();
      await next.query(`LISTEN ${CREDENTIAL_CHANNEL}`);
    } catch (err) {
      onLost(err as Error);
      return;
    }
    if (stopped) {
      await next.end().catch(() => {});
      return;
    }
    client = next;
    delayMs = 100;
    options.onLive(true);
    beat = setInterval(() => {
      let timer: NodeJS.Timeout | undefined;
      const silence = new Promise<never>((_, reject) => {
        timer = setTimeout(() => reject(new Error(`no answer to the heartbeat within ${heartbeat.timeoutMs} ms`)), heartbeat.timeoutMs);
      });
      Promise.race([next.query("SELECT 1"), silence])
        .catch((err: Error) => onLost(err))
        .finally(() => clearTimeout(timer));
    }, heartbeat.everyMs);
    beat.unref();
  }

  function schedule(): void {
    clearTimeout(retry);
    retry = setTimeout(() => void connect(), delayMs);
    retry.unref();
    delayMs = Math.min(delayMs * 2, 5_000);
  }

  return {
    start: connect,
    async stop() {
      stopped = true;
      clearTimeout(retry);
      options.onLive(false);
      await client?.end().catch(() => {});
      client = undefined;
    },
  };
}
