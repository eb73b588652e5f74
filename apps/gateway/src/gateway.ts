import { SERVICE_NAMES, type ServiceName } from "@hearth/contracts";
import { createServiceClient, databaseReadiness, kafkaSecurityOf, kafkaTopicSettingsOf, type Logger, type ServiceCall } from "@hearth/service-kit";
import { createJobRunner } from "@hearth/service-kit/jobs";
import type { GatewayConfig } from "./config";
import type { IdentityDb } from "./db";
import { createEventRelay } from "./events/event-relay";
import { createAiSwitch } from "./http/ai-switch";
import { createRateLimitRepository } from "./http/rate-limit-repository";
import { createRateLimiter } from "./http/rate-limiter";
import { createGatewayApp } from "./http/app";
import { createDependencyStatus } from "./health/dependency-status";
import { createGatewayReadiness } from "./health/gateway-readiness";
import { createIdempotencyRepository } from "./idempotency/idempotency-repository";
import { DEFAULT_IDEMPOTENCY, createIdempotentRequests } from "./idempotency/idempotent-requests";
import { createIdentity } from "./identity/identity";
import { createFamilyPurgeRepository, FAMILY_PURGE_QUEUE } from "./family-data/family-purge-repository";
import { familyPurgeJob } from "./family-data/family-purge-job";
import { createActorStanding } from "./identity/auth/actor-standing";
import { createFamilyResetHandlers } from "./family-data/family-reset-handlers";
import { createExportDownloadHandlers } from "./family-data/export-download-handlers";
import { createDownloadLinks } from "./family-data/export-download-links";
import { createExportLinkQueries } from "./family-data/export-link-queries";

const SERVICE_URL_KEYS: Record<ServiceName, "FINANCE_URL" | "CHAT_URL" | "NOTIFICATIONS_URL" | "AUDIT_URL"> = {
  finance: "FINANCE_URL",
  chat: "CHAT_URL",
  notifications: "NOTIFICATIONS_URL",
  audit: "AUDIT_URL",
};

export interface GatewayDeps {
  config: GatewayConfig;
  db: IdentityDb;
  log: Logger;
  /** How the job runner polls for due jobs and beats running jobs' heartbeats (tests change them). */
  jobs?: { pollMs?: number; heartbeatMs?: number };
  /** How often an open answer stream reads its credential again (tests shorten it). */
  streamRecheckMs?: number;
}

/** The queue of the gateway's family purges (tests run it with `jobs.drain`). */
export { FAMILY_PURGE_QUEUE };

/** Wires the gateway by hand: service clients, identity, the outbox relay and the HTTP app. Tests start exactly this. */
export async function createGateway({ config, db, log, jobs: jobTuning, streamRecheckMs }: GatewayDeps) {
  const services = Object.fromEntries(
    SERVICE_NAMES.map((service) => [
      service,
      createServiceClient({ service, url: config[SERVICE_URL_KEYS[service]], caller: "gateway", internalAuthSecret: config.INTERNAL_AUTH_SECRET }),
    ]),
  ) as Record<ServiceName, ServiceCall>;
  const events = await createEventRelay({
    databaseUrl: config.DATABASE_URL,
    kafkaBrokers: config.KAFKA_BROKERS,
    kafkaSecurity: kafkaSecurityOf(config),
    topicSettings: kafkaTopicSettingsOf(config),
    callAudit: services.audit,
    log,
  });
  const onEventsWritten = () => events.relay.poke();
  // Made before the handlers: GET /api/v1/usage reports from the limiter that enforces the limit.
  const rateLimiter = createRateLimiter({
    limit: config.RATE_LIMIT_REQUESTS,
    sessionLimit: config.SESSION_RATE_LIMIT_REQUESTS,
    familyLimit: config.FAMILY_RATE_LIMIT_REQUESTS,
    windowSeconds: config.RATE_LIMIT_WINDOW_SECONDS,
    redisUrl: config.REDIS_URL,
    log,
  });
  // Family purges (a reset, a deleted family) run in the background against every service holding family data.
  const jobs = createJobRunner({
    databaseUrl: config.DATABASE_URL,
    db,
    log,
    definitions: [familyPurgeJob(db, createFamilyPurgeRepository(db), services, log)],
    ...jobTuning,
  });
  const onFamilyPurgeQueued = () => jobs.poke(FAMILY_PURGE_QUEUE);
  const identity = createIdentity({ config, db, log, onEventsWritten, rateLimiter, onFamilyPurgeQueued });
  const { authenticate, credentials, sessionExpiry, sweeper } = identity;
  const downloadCounters = createRateLimitRepository(db);
  const downloadLinks = createDownloadLinks(config.SECRETS_ENCRYPTION_KEY, (key, windowStart) => downloadCounters.add(key, windowStart, 1));
  const local = {
    ...identity.local,
    ...createExportDownloadHandlers(services.finance, downloadLinks),
    ...createFamilyResetHandlers({ ...identity.repositories, withIdentityEvents: identity.withIdentityEvents, services, onPurgeQueued: onFamilyPurgeQueued }),
  };

  // Idempotent POSTs wait longer for their service: the run goes on after the client's answer is late, and is stored.
  const patientServices = Object.fromEntries(
    SERVICE_NAMES.map((service) => [
      service,
      createServiceClient({
        service,
        url: config[SERVICE_URL_KEYS[service]],
        caller: "gateway",
        internalAuthSecret: config.INTERNAL_AUTH_SECRET,
        timeoutMs: DEFAULT_IDEMPOTENCY.lockMs / 2,
      }),
    ]),
  ) as Record<ServiceName, ServiceCall>;
  const idempotency = createIdempotentRequests(createIdempotencyRepository(db), {
    ...DEFAULT_IDEMPOTENCY,
    onStoreFailed: (err) => log.error({ err }, "could not store an idempotent request's answer; its key stays held until the claim lapses"),
  });
  const readiness = createGatewayReadiness({ pingDatabase: databaseReadiness(db) });
  const dependencies = createDependencyStatus({
    urls: Object.fromEntries(SERVICE_NAMES.map((service) => [service, config[SERVICE_URL_KEYS[service]]])) as Record<ServiceName, string>,
  });

  const app = createGatewayApp({
    log,
    metricsToken: config.METRICS_TOKEN,
    bodyLimit: config.BODY_LIMIT,
    trustProxy: config.TRUST_PROXY,
    authenticate,
    assertAiEnabled: createAiSwitch(identity.repositories.users.aiEnabledOf, services.finance),
    local,
    services,
    patientServices,
    idempotency,
    rateLimiter,
    readiness,
    dependencies,
    downloadLinks,
    downloadGrantorStillAdmits: createExportLinkQueries(db).grantorStillAdmits,
    actorStanding: { internalAuthSecret: config.INTERNAL_AUTH_SECRET, standingOf: createActorStanding(db, sessionExpiry) },
    ...(streamRecheckMs !== undefined && { streamRecheckMs }),
  });
  return {
    app,
    relay: events.relay,
    publisherName: events.publisherName,
    sessionExpiry,
    /** Purges expired identity rows; `sweeper.sweep()` runs it once. */
    sweeper,
    /** Runs the gateway's jobs (family purges); `jobs.drain(FAMILY_PURGE_QUEUE)` runs the due ones now. */
    jobs,
    /** SIGTERM's first step: /ready turns 503 "draining" while requests are still served. */
    drain: () => readiness.drain(),
    start: async () => {
      await credentials.start();
      await rateLimiter.start();
      await events.relay.start();
      sessionExpiry.start();
      sweeper.start();
      jobs.start();
    },
    stop: async () => {
      // Idempotent runs whose answer was late store it before the database goes (within the shutdown's time).
      await idempotency.drain(8000);
      await sessionExpiry.stop();
      await sweeper.stop();
      // A purge under way lets go after its current step; the next start resumes it.
      await jobs.stop({ interrupt: true });
      await rateLimiter.stop();
      await credentials.stop();
      await events.stop();
    },
  };
}
