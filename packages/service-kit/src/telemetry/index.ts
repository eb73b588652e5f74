import type { SpanProcessor } from "@opentelemetry/sdk-trace";

export interface TelemetryOptions {
  serviceName: string;
  /** OTLP/HTTP endpoint of a collector, e.g. http://127.0.0.1:4318. Without it (and without processors) tracing stays off. */
  otlpEndpoint?: string | undefined;
  /** Extra processors, e.g. an in-memory exporter in tests. */
  spanProcessors?: SpanProcessor[];
}

export interface Telemetry {
  enabled: boolean;
  shutdown: () => Promise<void>;
}

/**
 * Starts OpenTelemetry before a process serves anything: W3C trace context propagation, Prisma
 * instrumentation, OTLP export. Tracing is off unless an endpoint or processors are given, and
 * then the SDK is not even loaded: importing it costs about half a second of every start-up.
 */
export async function startTelemetry(options: TelemetryOptions): Promise<Telemetry> {
  if (!options.otlpEndpoint && (options.spanProcessors ?? []).length === 0) return { enabled: false, shutdown: async () => {} };
  const [
    { CompositePropagator, W3CBaggagePropagator, W3CTraceContextPropagator },
    { OTLPTraceExporter },
    { PrismaInstrumentation },
    { startNodeSdk },
    { BatchSpanProcessor },
  ] = await Promise.all([
    import("@opentelemetry/core"),
    import("@opentelemetry/exporter-trace-otlp-http"),
    import("@prisma/instrumentation"),
    import("@opentelemetry/sdk-node"),
    import("@opentelemetry/sdk-trace"),
  ]);
  const processors = [...(options.spanProcessors ?? [])];
  if (options.otlpEndpoint) {
    processors.push(new BatchSpanProcessor({ exporter: new OTLPTraceExporter({ url: `${options.otlpEndpoint.replace(/\/$/, "")}/v1/traces` }) }));
  }
  const sdk = startNodeSdk({
    resourceAttributes: { "service.name": options.serviceName },
    resourceDetectors: [],
    spanProcessors: processors,
    propagators: [new CompositePropagator({ propagators: [new W3CTraceContextPropagator(), new W3CBaggagePropagator()] })],
    // Spans of our own at the edges (gateway route, tRPC client and server, Kafka) carry the
    // trace across processes explicitly; automatic HTTP spans would only double them.
    instrumentations: [new PrismaInstrumentation()],
  });
  return { enabled: true, shutdown: () => sdk.shutdown() };
}
