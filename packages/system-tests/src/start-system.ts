import { createServer, type Server } from "node:http";
import { randomBytes } from "node:crypto";
import { createAuditService } from "@hearth/audit/app";
import { MIGRATIONS_DIR as AUDIT_MIGRATIONS, createAuditDb } from "@hearth/audit/db";
import { createChatService } from "@hearth/chat/app";
import { createGatewayAskerStanding } from "@hearth/chat/asker-standing";
import { MIGRATIONS_DIR as CHAT_MIGRATIONS, createChatDb } from "@hearth/chat/db";
import { createFinanceService } from "@hearth/finance/app";
import { MIGRATIONS_DIR as FINANCE_MIGRATIONS, createFinanceDb } from "@hearth/finance/db";
import { GatewayEnvSchema } from "@hearth/gateway/config";
import { MIGRATIONS_DIR as GATEWAY_MIGRATIONS, createIdentityDb } from "@hearth/gateway/db";
import { createGateway } from "@hearth/gateway/gateway";
import { createNotificationsService } from "@hearth/notifications/app";
import { MIGRATIONS_DIR as NOTIFICATIONS_MIGRATIONS, createNotificationsDb } from "@hearth/notifications/db";
import {
  KafkaTopicEnvSchema,
  createLogger,
  createServiceClient,
  kafkaTopicSettingsOf,
  listen,
  loadConfig,
  type LogDestination,
  type RunningServer,
  type ServiceCall,
} from "@hearth/service-kit";
import type { AssistantOptions } from "@hearth/chat/app";
import { createMigratedDatabases } from "@hearth/test-kit";
import { startGroupAtEnd } from "./consumer-group-at-end";

export interface StartSystemOptions {
  /** Admin URL of the PostgreSQL server; five fresh databases are created on it. */
  adminUrl: string;
  /** Sends audit events through Kafka instead of straight to the audit service. */
  kafkaBrokers?: string | undefined;
  /** KAFKA_TOPIC_* for both Kafka clients, the gateway's relay and the audit consumer (e.g. replication 3 on a cluster). */
  kafkaEnv?: Record<string, string>;
  /** A consumer group of its own, so test files never share offsets. */
  auditConsumerGroupId?: string;
  /** Extra gateway environment, e.g. a small RATE_LIMIT_REQUESTS. */
  gatewayEnv?: Record<string, string>;
  /** Level of the one logger every part shares; default TEST_LOG_LEVEL, else silent. */
  logLevel?: string;
  /** Where its lines go instead of stdout, e.g. a stream a test reads them from. */
  logDestination?: LogDestination;
  /** Serve finance's internal bulk import (the benchmarks seed through it). */
  ledgerImport?: boolean;
  /** The assistant's model providers and timings (default: the built-in assistant alone). */
  assistant?: AssistantOptions;
}

interface Parts {
  server: Server;
  start?: () => Promise<void>;
  stop?: () => Promise<void>;
}

/** One internal service listening on a fixed port, which can be stopped and started again (outage tests). */
export class ServiceHandle {
  private running: RunningServer | null = null;
  private port = 0;

  constructor(
    readonly name: string,
    private readonly parts: Parts,
  ) {}

  get url(): string {
    if (!this.running) throw new Error(`${this.name} is not running`);
    return this.running.url;
  }

  async start(): Promise<void> {
    this.running = await listen(this.parts.server, this.port);
    this.port = Number(new URL(this.running.url).port);
    await this.parts.start?.();
  }

  async stop(): Promise<void> {
    await this.parts.stop?.();
    await this.running?.close();
    this.running = null;
  }
}

/**
 * The whole system in this process: fresh databases with every migration applied (copies of
 * migrated templates), the four services and the gateway on free ports, wired exactly as
 * `main.ts` wires them.
 */
export async function startSystem(options: StartSystemOptions) {
  const log = createLogger("system-test", options.logLevel ?? process.env.TEST_LOG_LEVEL ?? "silent", options.logDestination);
  const databases = await createMigratedDatabases(options.adminUrl, {
    gateway: GATEWAY_MIGRATIONS,
    finance: FINANCE_MIGRATIONS,
    chat: CHAT_MIGRATIONS,
    notifications: NOTIFICATIONS_MIGRATIONS,
    audit: AUDIT_MIGRATIONS,
  });
  const { urls } = databases;

  const internalAuthSecret = randomBytes(32).toString("hex");
  const db = {
    gateway: createIdentityDb(urls.gateway),
    finance: createFinanceDb(urls.finance),
    chat: createChatDb(urls.chat),
    notifications: createNotificationsDb(urls.notifications),
    audit: createAuditDb(urls.audit),
  };
  // A group of the test's own, starting at the topics' end (one a test names keeps its offsets).
  const auditGroupId = options.auditConsumerGroupId ?? `hearth-audit-test-${randomBytes(4).toString("hex")}`;
  if (options.kafkaBrokers && !options.auditConsumerGroupId) await startGroupAtEnd(options.kafkaBrokers, auditGroupId);
  // The assistant's tools call finance, whose address is known once it listens (it starts first).
  let financeClient: ServiceCall | undefined;
  const financeForChat: ServiceCall = (...call) =>
    (financeClient ??= createServiceClient({ service: "finance", url: services.finance.url, caller: "chat", internalAuthSecret }))(...call);
  let gatewayUrlForChat = "http://127.0.0.1:9";
  const services = {
    finance: new ServiceHandle(
      "finance",
      createFinanceService({
        db: db.finance,
        log,
        internalAuthSecret,
        ledgerImport: options.ledgerImport ?? false,
        // Test bridges (SimpleFIN) listen on loopback over plain http, as the test OpenID provider does.
        providerConnections: { allowPrivateHosts: true },
      }),
    ),
    chat: new ServiceHandle(
      "chat",
      createChatService({
        db: db.chat,
        log,
        internalAuthSecret,
        finance: financeForChat,
        // The gateway listens after the services: its address is read when an answer asks.
        askerStanding: createGatewayAskerStanding(() => gatewayUrlForChat, internalAuthSecret),
        ...(options.assistant && { assistant: options.assistant }),
      }),
    ),
    notifications: new ServiceHandle("notifications", createNotificationsService({ db: db.notifications, log, internalAuthSecret })),
    audit: new ServiceHandle(
      "audit",
      createAuditService({
        db: db.audit,
        log,
        internalAuthSecret,
        kafkaBrokers: options.kafkaBrokers,
        kafkaTopicSettings: kafkaTopicSettingsOf(loadConfig(KafkaTopicEnvSchema, options.kafkaEnv ?? {})),
        consumerGroupId: auditGroupId,
      }),
    ),
  };
  for (const service of Object.values(services)) await service.start();

  const config = loadConfig(GatewayEnvSchema, {
    NODE_ENV: "test",
    DATABASE_URL: urls.gateway,
    INTERNAL_AUTH_SECRET: internalAuthSecret,
    JWT_SECRET: randomBytes(32).toString("hex"),
    SECRETS_ENCRYPTION_KEY: randomBytes(32).toString("hex"),
    FINANCE_URL: services.finance.url,
    CHAT_URL: services.chat.url,
    NOTIFICATIONS_URL: services.notifications.url,
    AUDIT_URL: services.audit.url,
    KAFKA_BROKERS: options.kafkaBrokers,
    // Test files sign up many users from 127.0.0.1; the sign-up throttle test sets its own limit.
    SIGNUP_RATE_LIMIT_REQUESTS: "100000",
    // The same for SSO sign-in starts (sso-outbound.test.ts sets its own); the test OpenID
    // provider listens on loopback, so private issuers are allowed unless a test says "false".
    SSO_AUTHORIZE_RATE_LIMIT_REQUESTS: "100000",
    SSO_ALLOW_PRIVATE_ISSUERS: "true",
    ...options.kafkaEnv,
    ...options.gatewayEnv,
  });
  const gateway = await createGateway({ config, db: db.gateway, log });
  const gatewayServer = await listen(createServer(gateway.app), 0);
  gatewayUrlForChat = gatewayServer.url;
  await gateway.start();

  return {
    url: gatewayServer.url,
    /** Each service's database URL (benchmarks read them directly to compare against a bare server). */
    databaseUrls: urls,
    config,
    db,
    services,
    gateway,
    async stop() {
      await gateway.stop();
      await gatewayServer.close();
      for (const service of Object.values(services)) await service.stop().catch(() => {});
      await Promise.all(Object.values(db).map((client) => client.$disconnect()));
      await databases.drop();
    },
  };
}

export type TestSystem = Awaited<ReturnType<typeof startSystem>>;
