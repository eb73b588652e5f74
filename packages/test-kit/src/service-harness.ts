import { randomBytes, randomUUID } from "node:crypto";
import type { Server } from "node:http";
import { expect } from "vitest";
import { AppError, type Actor, type ErrorCode, type InternalContext, type ServiceName } from "@hearth/contracts";
import { createLogger, createServiceClient, listen, type Logger, type ServiceCall } from "@hearth/service-kit";
import { createMigratedDatabases } from "./databases";
import { testPostgresAdminUrl } from "./infra";

interface ServiceParts {
  server: Server;
  start?: () => Promise<void>;
  stop?: () => Promise<void>;
}

export interface ServiceUnderTest<Db, Parts> {
  url: string;
  db: Db;
  parts: Parts;
  internalAuthSecret: string;
  /** Calls the service as the gateway does: tRPC over HTTP with a signed internal context. */
  call: ServiceCall;
  stop: () => Promise<void>;
}

export interface ServiceUnderTestOptions<Db, Parts> {
  service: ServiceName;
  migrationsDir: string;
  createDb: (databaseUrl: string) => Db;
  create: (deps: { db: Db; log: Logger; internalAuthSecret: string }) => Parts;
}

/** One service on a fresh, migrated database of its own, listening on a free port, started. */
export async function startServiceUnderTest<Db extends { $disconnect(): Promise<void> }, Parts extends ServiceParts>(
  options: ServiceUnderTestOptions<Db, Parts>,
): Promise<ServiceUnderTest<Db, Parts>> {
  const databases = await createMigratedDatabases(testPostgresAdminUrl(), { [options.service]: options.migrationsDir } as Record<ServiceName, string>);
  const databaseUrl = databases.urls[options.service];
  const db = options.createDb(databaseUrl);
  const internalAuthSecret = randomBytes(32).toString("hex");
  const parts = options.create({ db, log: createLogger(`${options.service}-test`, process.env.TEST_LOG_LEVEL ?? "silent"), internalAuthSecret });
  const running = await listen(parts.server, 0);
  await parts.start?.();
  return {
    url: running.url,
    db,
    parts,
    internalAuthSecret,
    call: createServiceClient({ service: options.service, url: running.url, caller: "gateway", internalAuthSecret }),
    async stop() {
      await parts.stop?.();
      await running.close();
      await db.$disconnect();
      await databases.drop();
    },
  };
}

/** A user of a family of their own, as the gateway would have verified them. */
export function newActor(overrides: Partial<Actor> = {}): Actor {
  return { userId: randomUUID(), familyId: randomUUID(), role: "admin", scopes: ["read_write"], authMethod: "bearer", ...overrides };
}

/** The context the gateway signs for a request of this actor. */
export function contextOf(actor: Actor | null): Omit<InternalContext, "caller"> {
  return { requestId: `test-${randomUUID()}`, actor };
}

/** Awaits a call that must fail and returns the AppError the service client mapped it to. */
export async function expectAppError(call: Promise<unknown>, code: ErrorCode): Promise<AppError> {
  const error = await call.then(
    (value) => {
      throw new Error(`expected ${code}, but the call answered ${JSON.stringify(value)}`);
    },
    (err: unknown) => err,
  );
  expect(error).toBeInstanceOf(AppError);
  expect((error as AppError).code).toBe(code);
  return error as AppError;
}
