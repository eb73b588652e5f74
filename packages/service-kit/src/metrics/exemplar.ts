import { TraceFlags, isSpanContextValid, type Span } from "@opentelemetry/api";
import type { Histogram, LabelValues } from "prom-client";

/** The labels of an exemplar: the trace an observation belongs to. */
export type TraceExemplar = { trace_id?: string };

const NONE: TraceExemplar = Object.freeze({});

/**
 * The exemplar of an observation made for `span`: its trace id when the trace is sampled (so a
 * tracing backend has it), else none. An SRE goes from a slow bucket on a dashboard to the
 * trace of a request that landed in it.
 */
export function traceExemplar(span: Span | undefined): TraceExemplar {
  if (!span) return NONE;
  const context = span.spanContext();
  if (!isSpanContextValid(context) || (context.traceFlags & TraceFlags.SAMPLED) === 0) return NONE;
  return { trace_id: context.traceId };
}

/**
 * Starts timing an observation of a histogram made with `exemplars: true`; the returned
 * function observes the seconds since, under `labels` plus the ones given at the end, with the
 * exemplar (none when it is empty).
 */
export function startExemplarTimer<L extends string>(
  histogram: Histogram<L>,
  labels: LabelValues<L> = {},
): (endLabels: LabelValues<L>, exemplar: TraceExemplar) => void {
  const started = process.hrtime.bigint();
  return (endLabels, exemplar) => {
    const value = Number(process.hrtime.bigint() - started) / 1e9;
    // prom-client types an exemplar's labels as the metric's own label names; any name is valid.
    histogram.observe({ labels: { ...labels, ...endLabels }, value, exemplarLabels: exemplar as LabelValues<L> });
  };
}
