import type { AppName } from "./settings";

/**
 * Node.js flags an app runs with beyond the defaults, wherever it runs (`npm start`, finance's
 * `npm start`, docker-compose's NODE_OPTIONS; test/app-node-flags.test.ts keeps them the same).
 *
 * finance streams exports and imports of hundreds of MB through short-lived buffers: young
 * generation semi-spaces of 8 MB (Node 24 lets them grow to 32 MB and more) keep its RSS some
 * 80 MB lower at the same speed (bench/data-in-out.bench.ts, the export's peak RSS).
 */
export const APP_NODE_FLAGS: Record<AppName, readonly string[]> = {
  gateway: [],
  finance: ["--max-semi-space-size=8"],
  chat: [],
  notifications: [],
  audit: [],
};
