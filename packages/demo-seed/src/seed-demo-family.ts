import type { Actor } from "@hearth/contracts";
import { generateDemoLedger } from "./demo-ledger";
import { addDays, todayIso } from "./iso-dates";
import { writeLedger, type FinanceAccess } from "./ledger-writer";
import { publicApi, type PublicApi } from "./public-api";
import type { SeedAccount } from "./seed-ledger";

export interface DemoFamilyOptions {
  /** The gateway, e.g. http://localhost:3000: the person, their family, accounts, merchants and tags are made through the API. */
  apiUrl: string;
  /** The finance service: the history goes through its internal `ledger.import`. */
  finance: FinanceAccess;
  email: string;
  password: string;
  /** Everyday purchases over the two years (recurring pay, bills, transfers and valuations come on top). */
  purchases: number;
  log?: (line: string) => void;
}

const DEVICE = { device_id: "seed-demo", device_name: "Hearth demo seed", device_type: "web", os_version: "n/a", app_version: "1.0" };

const MERCHANTS: readonly (readonly [string, string])[] = [
  ["Green Grocer", "Groceries"],
  ["FreshMart", "Groceries"],
  ["Corner Bakery", "Food & Drink"],
  ["Blue Bottle Cafe", "Food & Drink"],
  ["Luigi's Trattoria", "Food & Drink"],
  ["Shell", "Transportation"],
  ["City Transit", "Transportation"],
  ["Amazon", "Shopping"],
  ["Target", "Shopping"],
  ["Home Depot", "Home Improvement"],
  ["CVS Pharmacy", "Healthcare"],
  ["Netflix", "Entertainment"],
  ["Cinema City", "Entertainment"],
  ["Gym Club", "Personal Care"],
  ["Book Nook", "Shopping"],
];

/** The admin signs up, or logs in when the email exists: returns the token and the acting user. */
async function signIn(api: PublicApi, options: DemoFamilyOptions) {
  try {
    const user = { email: options.email, password: options.password, first_name: "Demo", last_name: "Family" };
    return await api("POST", "/api/v1/auth/signup", { user, device: DEVICE });
  } catch {
    return api("POST", "/api/v1/auth/login", { email: options.email, password: options.password, device: DEVICE });
  }
}

/** Finds each named thing of the family or makes it: returns its id. */
async function ensureNamed(api: PublicApi, existing: { id: string; name: string }[], name: string, create: () => Promise<{ id: string }>): Promise<string> {
  return existing.find((thing) => thing.name === name)?.id ?? (await create()).id;
}

/**
 * Makes a realistic family: accounts of every class, merchants, categories and tags through the
 * public API, two years of history through finance's internal bulk import (as the signed-in
 * admin), then a family sync computes every balance. Returns the family.
 */
export async function seedDemoFamily(options: DemoFamilyOptions) {
  const log = options.log ?? (() => undefined);
  const session = await signIn(
    publicApi(options.apiUrl, () => undefined),
    options,
  );
  const api = publicApi(options.apiUrl, () => session.access_token);
  const familyId: string = (await api("GET", "/api/v1/family_settings")).id;
  const actor: Actor = { userId: session.user.id, familyId, role: "admin", scopes: ["read_write"], authMethod: "bearer" };
  const to = todayIso();
  const from = addDays(to, -730);

  const categories: { id: string; name: string; classification: string }[] = (await api("GET", "/api/v1/categories?per_page=100")).categories;
  const byName: Record<string, string> = Object.fromEntries(categories.map((c) => [c.name, c.id]));
  for (const name of new Set(MERCHANTS.map(([, category]) => category))) {
    byName[name] ??= (await api("POST", "/api/v1/categories", { category: { name } })).id;
  }
  const income =
    categories.find((c) => c.classification === "income")?.id ??
    (await api("POST", "/api/v1/categories", { category: { name: "Salary", classification: "income" } })).id;
  const existingMerchants = await api("GET", "/api/v1/merchants");
  const merchants = [];
  for (const [name, category] of MERCHANTS) {
    merchants.push({ id: await ensureNamed(api, existingMerchants, name, () => api("POST", "/api/v1/merchants", { merchant: { name } })), name, category });
  }
  const existingTags = await api("GET", "/api/v1/tags");
  const tagIds = [];
  for (const name of ["Vacation", "Kids", "Work expense", "Gift"]) {
    tagIds.push(await ensureNamed(api, existingTags, name, () => api("POST", "/api/v1/tags", { tag: { name } })));
  }

  const account = async (name: string, account_type: SeedAccount["type"], balance: string, extra: object = {}): Promise<SeedAccount> => {
    const made = await api("POST", "/api/v1/accounts", { account: { name, account_type, balance, opening_balance_date: from, ...extra } });
    return { id: made.id, type: account_type, currency: made.currency };
  };
  const accounts = {
    checking: await account("Everyday Checking", "depository", "4200", {
      subtype: "checking",
      institution_name: "First Bank",
      institution_domain: "firstbank.example",
    }),
    savings: await account("Rainy Day Savings", "depository", "12000", { subtype: "savings", institution_name: "First Bank" }),
    card: await account("Rewards Visa", "credit_card", "850", { institution_name: "Card Co" }),
    brokerage: await account("Brokerage", "investment", "15000", { subtype: "brokerage" }),
    house: await account("Home", "property", "420000", { subtype: "single_family_home" }),
    car: await account("Family Car", "vehicle", "28000"),
    mortgage: await account("Mortgage", "loan", "310000", { subtype: "mortgage" }),
  };
  log(`Generating ${options.purchases.toLocaleString("en")} purchases from ${from} to ${to}`);
  const ledger = generateDemoLedger({ accounts, expenseCategories: byName, incomeCategory: income, merchants, tagIds, from, to, purchases: options.purchases });
  log(`Writing ${ledger.entries.length.toLocaleString("en")} entries`);
  let reported = 0;
  await writeLedger(options.finance, actor, ledger, (written) => {
    if (written - reported < 200_000) return;
    reported = written;
    log(`  ${written.toLocaleString("en")} written`);
  });

  log("Computing balances (family sync)");
  await syncFamily(api);
  return { familyId, actor, accounts, entries: ledger.entries.length, token: session.access_token as string };
}

/** Runs a family sync through the API and waits for it to end. */
export async function syncFamily(api: PublicApi): Promise<void> {
  const sync = await api("POST", "/api/v1/sync");
  for (;;) {
    const shown = (await api("GET", `/api/v1/syncs/${sync.id}`)).data;
    if (shown.terminal) {
      if (shown.status !== "completed") throw new Error(`the family sync ended ${shown.status}: ${shown.error?.message ?? ""}`);
      return;
    }
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
}
