// `npm run seed:demo [-- --email you@example.com --password secret --size large --url http://localhost:3000]`
// Makes a realistic demo family in a running Hearth (`npm start`): the admin through the API,
// two years of history straight into the finance database. Prints how to sign in.
import { randomBytes } from "node:crypto";
import path from "node:path";
import { parseArgs } from "node:util";
import { createFinanceDb } from "@hearth/finance/db";
import { seedDemoFamily } from "@hearth/finance/seed";
import { loadSecrets } from "./start/secrets";
import { databaseName, readSettings } from "./start/settings";

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

/** The finance database of the running system: FINANCE_DATABASE_URL, or the embedded one `npm start` made. */
async function financeDatabaseUrl(): Promise<string> {
  if (process.env.FINANCE_DATABASE_URL) return process.env.FINANCE_DATABASE_URL;
  const settings = readSettings();
  const secrets = await loadSecrets(settings.dataDir);
  return `postgresql://hearth:${encodeURIComponent(secrets.POSTGRES_PASSWORD)}@127.0.0.1:${settings.pgPort}/${databaseName("finance")}`;
}

const settings = readSettings();
const apiUrl = values.url ?? `http://127.0.0.1:${settings.gatewayPort}`;
const email = values.email ?? `demo-${randomBytes(3).toString("hex")}@hearth.example`;
const password = values.password ?? `Demo-${randomBytes(6).toString("base64url")}`;
const financeDb = createFinanceDb(await financeDatabaseUrl());
const started = Date.now();
try {
  const family = await seedDemoFamily({ apiUrl, financeDb, email, password, purchases: SIZES[size], log: (line) => console.log(line) });
  console.log(
    `\nDemo family ready in ${((Date.now() - started) / 1000).toFixed(1)} s: ${family.entries.toLocaleString("en")} entries in ${Object.keys(family.accounts).length} accounts.`,
  );
  console.log(`Sign in at ${apiUrl} as\n  email:    ${email}\n  password: ${password}`);
} catch (error) {
  console.error(`seed:demo failed: ${(error as Error).message}`);
  console.error(`Is Hearth running (npm start) at ${apiUrl}? Data dir: ${path.resolve(settings.dataDir)}`);
  process.exitCode = 1;
} finally {
  await financeDb.$disconnect();
}
