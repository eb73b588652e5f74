import type { FinanceDb } from "../db";
import { addDays, todayIso } from "../ledger/dates";
import { generateDemoLedger, type SeedAccount } from "./demo-ledger";
import { writeLedger } from "./bulk-write";

export interface DemoFamilyOptions {
  /** The gateway, e.g. http://localhost:3000: the person, their family and its settings are made through the API. */
  apiUrl: string;
  /** The finance database: the history is written straight into it. */
  financeDb: FinanceDb;
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

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- JSON answers of our own API, read field by field
type Api = (method: string, path: string, body?: unknown) => Promise<any>;

function apiOf(baseUrl: string, token: () => string | undefined): Api {
  return async (method, path, body) => {
    const auth = token();
    const response = await fetch(new URL(path, baseUrl), {
      method,
      headers: { "content-type": "application/json", ...(auth ? { authorization: `Bearer ${auth}` } : {}) },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
    const text = await response.text();
    const json = text ? JSON.parse(text) : null;
    if (!response.ok) throw new Error(`${method} ${path} answered ${response.status}: ${text}`);
    return json;
  };
}

/**
 * Makes a realistic family: the admin signs up (or logs in when the email exists), accounts of
 * every class, merchants and tags are made through the API, two years of history are written to
 * the finance database in bulk, and a family sync computes every balance. Returns the family.
 */
export async function seedDemoFamily(options: DemoFamilyOptions) {
  const log = options.log ?? (() => undefined);
  let token: string | undefined;
  const api = apiOf(options.apiUrl, () => token);
  try {
    token = (
      await api("POST", "/api/v1/auth/signup", {
        user: { email: options.email, password: options.password, first_name: "Demo", last_name: "Family" },
        device: DEVICE,
      })
    ).access_token;
  } catch {
    token = (await api("POST", "/api/v1/auth/login", { email: options.email, password: options.password, device: DEVICE })).access_token;
  }
  const familyId: string = (await api("GET", "/api/v1/family_settings")).id;
  const to = todayIso();
  const from = addDays(to, -730);

  const categories: { id: string; name: string; classification: string }[] = (await api("GET", "/api/v1/categories?per_page=100")).categories;
  const byName = Object.fromEntries(categories.map((c) => [c.name, c.id]));
  for (const name of new Set(MERCHANTS.map(([, category]) => category))) {
    if (!byName[name]) byName[name] = (await api("POST", "/api/v1/categories", { category: { name } })).id;
  }
  const income =
    categories.find((c) => c.classification === "income")?.id ??
    (await api("POST", "/api/v1/categories", { category: { name: "Salary", classification: "income" } })).id;
  const existingMerchants: { id: string; name: string }[] = await api("GET", "/api/v1/merchants");
  const merchants = [];
  for (const [name, category] of MERCHANTS) {
    const found = existingMerchants.find((m) => m.name === name);
    merchants.push({ id: found?.id ?? (await api("POST", "/api/v1/merchants", { merchant: { name } })).id, name, category });
  }
  const existingTags: { id: string; name: string }[] = await api("GET", "/api/v1/tags");
  const tagIds = [];
  for (const name of ["Vacation", "Kids", "Work expense", "Gift"]) {
    tagIds.push(existingTags.find((t) => t.name === name)?.id ?? (await api("POST", "/api/v1/tags", { tag: { name } })).id);
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
  await writeLedger(options.financeDb, familyId, ledger, (written) => {
    if (written % 200_000 === 0) log(`  ${written.toLocaleString("en")} written`);
  });

  const sync = await api("POST", "/api/v1/sync");
  log("Computing balances (family sync)");
  for (;;) {
    const shown = (await api("GET", `/api/v1/syncs/${sync.id}`)).data;
    if (shown.terminal) {
      if (shown.status !== "completed") throw new Error(`the family sync ended ${shown.status}: ${shown.error?.message ?? ""}`);
      break;
    }
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  return { familyId, accounts, entries: ledger.entries.length, token: token! };
}
