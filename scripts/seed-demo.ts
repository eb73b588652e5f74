// `npm run seed:demo [-- --email you@example.com --password secret --size large --url http://localhost:3000]`
// Makes a realistic demo family in a running Hearth (`npm start`): people, accounts, merchants
// and tags through the public API (`--url`, default the local gateway), two years of history
// through finance's internal bulk import (the local finance and the secret in npm start's data
// dir; FINANCE_URL and INTERNAL_AUTH_SECRET name another one, which must run with LEDGER_IMPORT=on).
// Prints how to sign in.
import { randomBytes } from "node:crypto";
import path from "node:path";
import { parseArgs } from "node:util";
import { seedDemoFamily } from "@hearth/demo-seed";
import { localSystem } from "@hearth/dev-tools/local-system";

const SIZES = { demo: 5_000, large: 1_000_000 } as const;

const { values } = parseArgs({
  options: {
    email: { type: "string" },
    password: { type: "string" },
    size: { type: "string", default: "demo" },
    url: { type: "string" },
  },
});
const size = values.size as keyof typeof SIZES;
if (!(size in SIZES)) {
  console.error(`--size must be one of ${Object.keys(SIZES).join(", ")}, not "${values.size}"`);
  process.exit(2);
}

// The system `npm start` runs from this checkout: its ports and the internal secret in its data dir.
const system = await localSystem();
const apiUrl = values.url ?? system.gatewayUrl;
const email = values.email ?? `demo-${randomBytes(3).toString("hex")}@hearth.example`;
const password = values.password ?? `Demo-${randomBytes(6).toString("base64url")}`;
const started = Date.now();
try {
  const family = await seedDemoFamily({
    apiUrl,
    finance: { url: system.financeUrl, internalAuthSecret: system.internalAuthSecret },
    email,
    password,
    purchases: SIZES[size],
    log: (line) => console.log(line),
  });
  console.log(
    `\nDemo family ready in ${((Date.now() - started) / 1000).toFixed(1)} s: ${family.entries.toLocaleString("en")} entries in ${Object.keys(family.accounts).length} accounts.`,
  );
  console.log(`Sign in at ${apiUrl} as\n  email:    ${email}\n  password: ${password}`);
} catch (error) {
  console.error(`seed:demo failed: ${(error as Error).message}`);
  console.error(`Is Hearth running (npm start) at ${apiUrl}? Data dir: ${path.resolve(system.dataDir)}`);
  process.exitCode = 1;
}
