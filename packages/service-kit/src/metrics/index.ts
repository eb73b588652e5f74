export { metricsRegistry, initMetrics, metricsText, counter, histogram, scrapedGauge, sharedRead, type Sample } from "./registry";
export { metricsTokenOf, hasMetricsToken } from "./access";
export { LATENCY_BUCKETS, httpRequestsTotal, httpRequestDuration, trpcRequestsTotal, trpcRequestDuration } from "./red";
export { observeJob } from "./jobs";
export { registerPgPool } from "./pool";
export { OUTBOX_COUNT_CAP, outboxPublishedTotal, outboxDeadLetteredTotal, registerOutbox } from "./outbox";
export { consumedMessagesTotal, consumerDeadLetteredTotal, registerConsumerLag, lagOf } from "./kafka";
export { serveMetrics } from "./endpoint";
export { metricSample } from "./text-sample";
