export { kafkaSecurityOf, type KafkaSecurity } from "./kafka-security";
export { DEFAULT_KAFKA_TOPIC_SETTINGS, KafkaTopicEnvSchema, kafkaTopicSettingsOf, type KafkaTopicSettings } from "./kafka-topics";
export {
  loadConfig,
  ConfigError,
  BaseServiceEnvSchema,
  PortSchema,
  kafkaBrokersOf,
  serviceEnvSchema,
  secretSchema,
  markSecret,
  weakSecretReason,
} from "./config";
export { createLogger, REDACTED_PATHS, type LogDestination, type Logger } from "./logger";
export { createInternalSigner, createInternalVerifier, INTERNAL_AUTH_HEADER, internalTokenOf } from "./internal-auth";
export { createPrismaClient, databaseUrlOf, pgPoolOf } from "./prisma";
export { onShutdown } from "./shutdown";
export { messagesOf } from "./zod-messages";
export { TRPC_CODE_OF } from "./trpc/error-codes";
export { t, actorProcedure, internalProcedure, appErrorToTrpc, type ActorContext, type ServiceContext } from "./trpc/server";
export { buildServiceRouter, inputSchemaOf, type RouteHandler, type RouteHandlers, type InternalHandlers, type InternalCallContext } from "./trpc/implement";
export { createServiceServer, databaseReadiness, listen, type RunningServer, type ServiceDeps, type ServiceServerOptions } from "./trpc/service-server";
export { createServiceClient, SerializedInput, type ServiceCall, type CallKind, type ServiceClientOptions } from "./trpc/service-client";
export { createTypedServiceClient, type BoundServiceCall, type ProcedureOf, type TypedServiceClient } from "./trpc/typed-service-client";
export { isUniqueViolation, isDatabaseUnavailable, isLockTimeout, isStatementTimeout } from "./prisma-errors";
export { runService, type RunServiceOptions, type ServiceParts } from "./run-service";
export { startTelemetry, type Telemetry, type TelemetryOptions } from "./telemetry";
export { withSpan } from "./telemetry/with-span";
export {
  metricsRegistry,
  initMetrics,
  metricsText,
  metricSample,
  traceExemplar,
  startExemplarTimer,
  type TraceExemplar,
  metricsTokenOf,
  hasMetricsToken,
  counter,
  histogram,
  scrapedGauge,
  sharedRead,
  observeJob,
  registerPgPool,
  httpRequestsTotal,
  httpRequestDuration,
  trpcRequestsTotal,
  trpcRequestDuration,
  LATENCY_BUCKETS,
  type Sample,
} from "./metrics";
export { createSecretBox, type SecretBox } from "./crypto/secret-box";
export {
  createOutboundHttp,
  OutboundRefused,
  OutboundFailed,
  OutboundTooLarge,
  MAX_URL_LENGTH,
  type OutboundHttp,
  type OutboundPolicy,
  type OutboundRequest,
  type OutboundResponse,
} from "./net/outbound-http";
export { classifyAddress, refusalOf, addressRefusal, type AddressClass } from "./net/address-classes";
export { createPollingLoop, type PollingLoop } from "./workers/polling-loop";
export { batchTransactionOptions, deleteInShrinkingBatches, limitBatch, type BatchTimeouts } from "./workers/purge-batches";
export { Semaphore, SemaphoreFull, SemaphoreWaitAborted, type TaskOwner } from "./fair-semaphore";
export { OffThreadJson, JsonSyntaxError } from "./trpc/off-thread-json";
export { turnUntilAnswered, type AnswerTurnOptions } from "./trpc/turn-until-answered";
export { hasLargeBody } from "./trpc/large-body-gate";
export { readBodyBytes } from "./net/read-body-bytes";
