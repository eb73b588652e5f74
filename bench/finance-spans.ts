// The finance calls another service makes, as the service kit's own tRPC spans record them
// ("trpc.client finance/<procedure>" where the call is made, "trpc.server <procedure>" in finance):
// an in-memory tracer of this process, registered before the system starts. Nothing else is
// traced (no Prisma or HTTP instrumentation), so the services run as they do untraced but for
// creating these spans.
import { trace } from "@opentelemetry/api";
import { TracerProvider, type ReadableSpan, type SpanProcessor } from "@opentelemetry/sdk-trace";

export interface FinanceCallSpan {
  procedure: string;
  /** Where the span was: the caller's client (HTTP and tRPC included) or finance's handler. */
  side: "client" | "server";
  /** Epoch milliseconds, comparable with Date.now(). */
  startMs: number;
  endMs: number;
}

const epochMs = ([seconds, nanos]: [number, number]) => seconds * 1000 + nanos / 1e6;

export function recordFinanceCalls() {
  let recorded: FinanceCallSpan[] = [];
  const keep = (span: ReadableSpan) => {
    const client = /^trpc\.client finance\/(.+)$/.exec(span.name)?.[1];
    const server = span.attributes["rpc.service"] === "finance" ? /^trpc\.server (.+)$/.exec(span.name)?.[1] : undefined;
    const procedure = client ?? server;
    if (!procedure) return;
    const startMs = epochMs(span.startTime);
    recorded.push({ procedure, side: client ? "client" : "server", startMs, endMs: startMs + epochMs(span.duration) });
  };
  const processor: SpanProcessor = { onStart: () => {}, onEnd: keep, forceFlush: async () => {}, shutdown: async () => {} };
  trace.setGlobalTracerProvider(new TracerProvider({ spanProcessors: [processor] }));
  return {
    /** The finance calls that ended since the last take. */
    take(): FinanceCallSpan[] {
      const taken = recorded;
      recorded = [];
      return taken;
    },
  };
}

/** How long the caller waited on finance: its client spans' time, calls made at once counted once. */
export function waitedMs(spans: readonly FinanceCallSpan[]): number {
  const calls = spans.filter((span) => span.side === "client").sort((a, b) => a.startMs - b.startMs);
  let total = 0;
  let coveredUntil = -Infinity;
  for (const call of calls) {
    const from = Math.max(call.startMs, coveredUntil);
    if (call.endMs > from) total += call.endMs - from;
    coveredUntil = Math.max(coveredUntil, call.endMs);
  }
  return total;
}
