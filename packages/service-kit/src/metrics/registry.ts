import { Counter, Gauge, Histogram, Registry, collectDefaultMetrics, type LabelValues, type OpenMetricsContentType } from "prom-client";

/**
 * The one Prometheus registry of the process. Every metric of Hearth registers here, and
 * `GET /metrics` (the gateway's public port with METRICS_TOKEN, each service's internal port)
 * serves it in the OpenMetrics text format: the format that carries exemplars (the trace id of
 * a request a latency bucket saw), which Prometheus negotiates and stores with
 * `--enable-feature=exemplar-storage`. Every counter's name ends in `_total`, so the series
 * names are those of the Prometheus text format.
 */
export const metricsRegistry = new Registry<OpenMetricsContentType>();
metricsRegistry.setContentType(Registry.OPENMETRICS_CONTENT_TYPE);

let initialisedFor: string | null = null;

/**
 * Labels every series with `service` and starts the default Node.js metrics (CPU, memory, GC,
 * event-loop delay sampled every 10 ms). Once per process: the first caller names the service.
 * (The in-process test system starts five of them in one process; they share one registry,
 * and the per-procedure series carry their own `service` label.)
 */
export function initMetrics(service: string): void {
  if (initialisedFor !== null) return;
  initialisedFor = service;
  metricsRegistry.setDefaultLabels({ service });
  collectDefaultMetrics({ register: metricsRegistry, eventLoopMonitoringPrecision: 10 });
}

/** The registry in Prometheus' text format, and its content type. */
export async function metricsText(): Promise<{ contentType: string; body: string }> {
  return { contentType: metricsRegistry.contentType, body: await metricsRegistry.metrics() };
}

/** A counter on the process registry; the same one when the name is already registered. */
export function counter<L extends string>(config: { name: string; help: string; labelNames?: readonly L[] }): Counter<L> {
  return (metricsRegistry.getSingleMetric(config.name) as Counter<L> | undefined) ?? new Counter<L>({ ...config, registers: [metricsRegistry] });
}

/**
 * A histogram on the process registry; the same one when the name is already registered. With
 * `exemplars`, each bucket keeps the exemplar of its latest observation: time it with
 * `startExemplarTimer` (exemplar.ts).
 */
export function histogram<L extends string>(config: {
  name: string;
  help: string;
  labelNames?: readonly L[];
  buckets: number[];
  exemplars?: boolean;
}): Histogram<L> {
  const { exemplars = false, ...rest } = config;
  return (
    (metricsRegistry.getSingleMetric(config.name) as Histogram<L> | undefined) ??
    new Histogram<L>({ ...rest, enableExemplars: exemplars, registers: [metricsRegistry] })
  );
}

export interface Sample<L extends string> {
  labels: LabelValues<L>;
  value: number;
}

/**
 * A gauge read at scrape time: `collect` runs when Prometheus scrapes and returns the current
 * samples. A read that fails or takes longer than `timeoutMs` leaves the gauge empty for that
 * scrape (absent, not a made-up 0) and counts in `metrics_collect_failures_total`, so one slow
 * database never fails the whole scrape. The same one when the name is already registered.
 */
export function scrapedGauge<L extends string>(config: {
  name: string;
  help: string;
  labelNames: readonly L[];
  collect: () => Promise<Sample<L>[]>;
  timeoutMs?: number;
}): Gauge<L> {
  const existing = metricsRegistry.getSingleMetric(config.name) as Gauge<L> | undefined;
  if (existing) return existing;
  const timeoutMs = config.timeoutMs ?? 2000;
  return new Gauge<L>({
    name: config.name,
    help: config.help,
    labelNames: config.labelNames,
    registers: [metricsRegistry],
    async collect() {
      const samples = await withTimeout(config.collect(), timeoutMs).catch(() => null);
      this.reset();
      if (samples === null) {
        collectFailures.inc({ gauge: config.name });
        return;
      }
      for (const sample of samples) this.set(sample.labels, sample.value);
    },
  });
}

const collectFailures = counter({
  name: "metrics_collect_failures_total",
  help: "Scrape-time reads of a gauge that failed or timed out (the gauge was left empty for that scrape)",
  labelNames: ["gauge"],
});

/**
 * Runs `read` at most once per `maxAgeMs` and never twice at a time: the gauges fed by one
 * query (depth and age) share it within a scrape, and a read still running (a database that
 * hangs) is joined instead of piled up.
 */
export function sharedRead<T>(read: () => Promise<T>, maxAgeMs = 1000): () => Promise<T> {
  let last: { at: number; result: Promise<T> } | null = null;
  let running: Promise<T> | null = null;
  return () => {
    if (running) return running;
    if (last && Date.now() - last.at < maxAgeMs) return last.result;
    const result = read();
    running = result;
    last = { at: Date.now(), result };
    const settle = () => {
      running = null;
    };
    result.then(settle, settle);
    return result;
  };
}

function withTimeout<T>(promise: Promise<T>, ms: number): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`timed out after ${ms} ms`)), ms);
    timer.unref();
    promise.then(
      (value) => {
        clearTimeout(timer);
        resolve(value);
      },
      (err: unknown) => {
        clearTimeout(timer);
        reject(err instanceof Error ? err : new Error(String(err)));
      },
    );
  });
}
