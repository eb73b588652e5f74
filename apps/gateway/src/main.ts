import { createServer } from "node:http";
import { fileURLToPath } from "node:url";
import { runService } from "@hearth/service-kit";
import { GatewayEnvSchema } from "./config";
import { createIdentityDb } from "./db";
import { createGateway } from "./gateway";

await runService({
  service: "gateway",
  envSchema: GatewayEnvSchema,
  migrationsDir: fileURLToPath(new URL("../prisma/migrations", import.meta.url)),
  createDb: createIdentityDb,
  createParts: async ({ config, db, log }) => {
    const gateway = await createGateway({ config, db, log });
    return { server: createServer(gateway.app), start: gateway.start, stop: gateway.stop };
  },
});
