import { cachedCheck } from "./cached-check";

export type GatewayReadiness =
  | { ready: true; body: { status: "ready"; checks: { database: true } } }
  | { ready: false; body: { status: "unavailable" | "draining"; checks: { database: boolean } } };

export interface GatewayReadinessOptions {
  /** Resolves when the gateway's own database answers. */
  pingDatabase: () => Promise<unknown>;
  /** How long one answer is reused (the probe is public and unthrottled). */
  cacheMs?: number;
  /** A database that does not answer within this is down: the probe answers 503, never hangs. */
  timeoutMs?: number;
}

/**
 * The gateway's own readiness, for a load balancer: its database answers and it is not shutting
 * down. The internal services are deliberately not part of it: one of them down (even chat) must
 * not take the whole API out of rotation; /health/dependencies reports them.
 */
export function createGatewayReadiness(options: GatewayReadinessOptions) {
  let draining = false;
  const database = cachedCheck(() => {
    let timer: NodeJS.Timeout | undefined;
    const late = new Promise<boolean>((resolve) => (timer = setTimeout(() => resolve(false), options.timeoutMs ?? 2000)));
    const answered = options.pingDatabase().then(
      () => true,
      () => false,
    );
    return Promise.race([answered, late]).finally(() => clearTimeout(timer));
  }, options.cacheMs ?? 1000);
  return {
    /** From now on /ready answers 503 "draining" (SIGTERM: let the load balancer stop sending first). */
    drain(): void {
      draining = true;
    },
    async check(): Promise<GatewayReadiness> {
      const databaseUp = await database();
      if (draining) return { ready: false, body: { status: "draining", checks: { database: databaseUp } } };
      if (!databaseUp) return { ready: false, body: { status: "unavailable", checks: { database: false } } };
      return { ready: true, body: { status: "ready", checks: { database: true } } };
    },
  };
}

export type GatewayReadinessCheck = ReturnType<typeof createGatewayReadiness>;
