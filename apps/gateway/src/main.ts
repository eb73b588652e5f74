import { createServer } from "node:http";
import { runService } from "@hearth/service-kit";
import { GatewayEnvSchema } from "./config";
import { MIGRATIONS_DIR, createIdentityDb } from "./db";
import { createGateway } from "./gateway";

await runService({
  service: "gateway",
  envSchema: GatewayEnvSchema,
  migrationsDir: MIGRATIONS_DIR,
  createDb: createIdentityDb,
  createParts: async ({ config, db, log }) => {
    const gateway = await createGateway({ config, db, log });
    return { server: createServer(gateway.app), start: gateway.start, stop: gateway.stop, drain: gateway.drain };
  },
});
