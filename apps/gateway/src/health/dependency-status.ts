import { SERVICE_NAMES, type ServiceName } from "@hearth/contracts";
import { cachedCheck } from "./cached-check";

export interface DependencyState {
  status: "up" | "down";
  /** How long its /ready took to answer (or to fail). */
  latency_ms: number;
}

export interface DependencyReport {
  status: "ok" | "degraded";
  checked_at: string;
  dependencies: Record<ServiceName, DependencyState>;
}

export interface DependencyStatusOptions {
  /** Base URL of each internal service. */
  urls: Record<ServiceName, string>;
  timeoutMs?: number;
  /** How long one report is reused: however often it is asked, each service is probed at most once per this. */
  cacheMs?: number;
}

/** Each internal service's readiness, for operators and monitoring (not for load balancers: see gateway-readiness). */
export function createDependencyStatus(options: DependencyStatusOptions) {
  const timeoutMs = options.timeoutMs ?? 2000;
  async function probe(service: ServiceName): Promise<DependencyState> {
    const started = performance.now();
    const up = await fetch(`${options.urls[service]}/ready`, { signal: AbortSignal.timeout(timeoutMs) }).then(
      async (res) => {
        await res.body?.cancel();
        return res.ok;
      },
      () => false,
    );
    return { status: up ? "up" : "down", latency_ms: Math.round(performance.now() - started) };
  }
  return cachedCheck(async (): Promise<DependencyReport> => {
    const states = await Promise.all(SERVICE_NAMES.map(async (service) => [service, await probe(service)] as const));
    const dependencies = Object.fromEntries(states) as Record<ServiceName, DependencyState>;
    const status = states.every(([, state]) => state.status === "up") ? "ok" : "degraded";
    return { status, checked_at: new Date().toISOString(), dependencies };
  }, options.cacheMs ?? 5000);
}

export type DependencyStatus = ReturnType<typeof createDependencyStatus>;
