import { CompositePropagator, W3CBaggagePropagator, W3CTraceContextPropagator } from "@opentelemetry/core";
import { OTLPTraceExporter } from "@opentelemetry/exporter-trace-otlp-http";
import { PrismaInstrumentation } from "@prisma/instrumentation";
import { startNodeSdk } from "@opentelemetry/sdk-node";
import { BatchSpanProcessor, type SpanProcessor } from "@opentelemetry/sdk-trace";

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
 * Starts OpenTelemetry before anything else in a process: W3C trace context propagation,
 * Prisma instrumentation, OTLP export. Tracing is off unless an endpoint or
 * processors are given, so the embedded default costs nothing.
 */
export function startTelemetry(options: TelemetryOptions): Telemetry {
  const processors = [...(options.spanProcessors ?? [])];
  if (options.otlpEndpoint) {
    processors.push(new BatchSpanProcessor({ exporter: new OTLPTraceExporter({ url: `${options.otlpEndpoint.replace(/\/$/, "")}/v1/traces` }) }));
  }
  if (processors.length === 0) return { enabled: false, shutdown: async () => {} };
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
