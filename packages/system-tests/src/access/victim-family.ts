import type { TestOidcProvider } from "@hearth/test-kit";
import type { ApiClient } from "../api-client";
import { eventually } from "../eventually";
import { createFuzzFamily } from "../fuzz/fuzz-family";
import { ssoProviderSettings, ssoSignIn } from "../sso";
import type { TestUser } from "../users";

/** Who reads a record back: a credential of the family (or the user) that owns it. */
export interface Owner {
  token: string;
  apiKey?: string;
}

/** One real record of one kind, with the credential its owner reads it back with. */
export interface OwnedRecord {
  id: string;
  owner: Owner;
  /** A record inside this one, for routes naming both (a chat's message: `/chats/:chat_id/messages/:id`). */
  childId?: string;
}

/** The family whose records another family's requests must not reach. */
export interface VictimFamily {
  admin: TestUser;
  /** By the path segment before `:id` in the route table (`accounts`, `users`, `sso_identities`, ...), plus `investment_accounts`. */
  records: Record<string, OwnedRecord>;
}

export const VICTIM_IDP_SECRET = "victim-idp-client-secret-01";
/** The user the victim family's provider signs in, who gets an SSO identity in that family. */
export const VICTIM_SSO_USER = { sub: "victim-sso-sub", email: "victim.sso@example.test", email_verified: true, given_name: "Vic", groups: [] };

function idOf(what: string, res: { status: number; body: any }): string {
  if (res.status !== 200 && res.status !== 201 && res.status !== 202)
    throw new Error(`victim family: ${what} answered ${res.status}: ${JSON.stringify(res.body)}`);
  const nested = Object.values((res.body ?? {}) as Record<string, any>).find((value) => value && typeof value === "object" && "id" in value);
  const id = res.body?.id ?? nested?.id;
  if (typeof id !== "string") throw new Error(`victim family: ${what} has no id: ${JSON.stringify(res.body)}`);
  return id;
}

/** Waits until the family's latest sync is done, so balances and accounts stay still while compared. */
/** A family export, waited for until it completed (so reading it back later finds it unchanged). */
async function completedExport(api: ApiClient, key: { apiKey: string }): Promise<string> {
  const id = idOf("family export", await api.post("/api/v1/family_exports", undefined, key));
  await eventually(async () => {
    const shown = await api.get(`/api/v1/family_exports/${id}`, key);
    if (shown.body?.data?.status !== "completed") throw new Error(`family export: ${JSON.stringify(shown.body)}`);
  });
  return id;
}

/**
 * A SimpleFIN connection whose bridge nothing answers (port 9 of this machine refuses at once),
 * waited for until its first sync failed: it stays as it is while compared.
 */
async function providerConnection(api: ApiClient, key: { apiKey: string }): Promise<string> {
  const body = { provider_connection: { provider: "simplefin", access_url: "http://victim:bridge-secret@127.0.0.1:9/simplefin" } };
  const id = idOf("provider connection", await api.post("/api/v1/provider_connections", body, key));
  await eventually(async () => {
    const list = await api.get("/api/v1/provider_connections", key);
    const connection = (list.body?.data as { id: string; sync: { syncing: boolean; latest: { status: string } | null } }[]).find((each) => each.id === id);
    if (connection?.sync.syncing !== false || connection.sync.latest?.status !== "failed")
      throw new Error(`provider connection: ${JSON.stringify(connection)}`);
  });
  return id;
}

/** A chat whose question the built-in assistant has answered (so nothing in it changes any more), and that question. */
async function answeredChat(api: ApiClient, key: { apiKey: string }): Promise<{ chat: string; question: string }> {
  const created = await api.post("/api/v1/chats", { title: "Victim chat", message: "What is our net worth?", model: "hearth-builtin" }, key);
  const chat = idOf("chat", created);
  const question = (created.body.messages as { id: string }[])[0]?.id;
  if (!question) throw new Error("victim family: the chat has no question");
  await eventually(async () => {
    const state = await api.get(`/api/v1/chats/${chat}/messages/${question}`, key);
    if (state.body?.ai_response_status !== "complete") throw new Error(`victim chat: ${JSON.stringify(state.body)}`);
  });
  return { chat, question };
}

async function syncsSettled(api: ApiClient, key: { apiKey: string }): Promise<void> {
  await eventually(async () => {
    const latest = await api.get("/api/v1/syncs/latest", key);
    if (latest.body?.data?.status !== "completed") throw new Error(`latest sync: ${JSON.stringify(latest.body)}`);
  });
}

/** A pair the matcher proposes after a sync (an outflow and an inflow of the same amount), then rejected. */
async function rejectedTransfer(api: ApiClient, key: { apiKey: string }, fromAccount: string): Promise<string> {
  const savings = idOf(
    "savings account",
    await api.post("/api/v1/accounts", { account: { name: "Savings", account_type: "depository", balance: "0", opening_balance_date: "2024-01-01" } }, key),
  );
  const transaction = (account_id: string, date: string, nature: string) =>
    api.post("/api/v1/transactions", { transaction: { account_id, date, amount: "250", nature, name: "To savings" } }, key);
  const out = idOf("outflow", await transaction(fromAccount, "2024-05-10", "outflow"));
  idOf("inflow", await transaction(savings, "2024-05-12", "inflow"));
  const queued = await api.post("/api/v1/sync", undefined, key);
  if (queued.status !== 202) throw new Error(`victim family: sync answered ${queued.status}`);
  await syncsSettled(api, key);
  const pending = await api.get("/api/v1/transfers?status=pending", key);
  const proposal = (pending.body.transfers as { id: string; outflow_transaction: { id: string } }[]).find((t) => t.outflow_transaction.id === out);
  if (!proposal) throw new Error(`victim family: no proposed transfer: ${JSON.stringify(pending.body)}`);
  const rejected = await api.patch(`/api/v1/transfers/${proposal.id}`, { transfer: { status: "rejected" } }, key);
  if (rejected.status !== 200) throw new Error(`victim family: rejecting answered ${rejected.status}`);
  const list = await api.get("/api/v1/rejected_transfers", key);
  const [pair] = list.body.rejected_transfers as { id: string }[];
  if (!pair) throw new Error(`victim family: no rejected transfer: ${JSON.stringify(list.body)}`);
  return pair.id;
}

/** A brokerage account with a buy (so a security and, once synced, holdings) and a price of that security. */
export async function investmentRecords(api: ApiClient, key: { apiKey: string }, category: string) {
  const account = idOf(
    "brokerage",
    await api.post(
      "/api/v1/accounts",
      { account: { name: "Brokerage", account_type: "investment", balance: "5000", opening_balance_date: "2024-01-01" } },
      key,
    ),
  );
  const bought = await api.post(
    "/api/v1/trades",
    { trade: { account_id: account, type: "buy", date: "2024-04-03", qty: "3", price: "100", ticker: "VICT", category_id: category } },
    key,
  );
  const trade = idOf("trade", bought);
  const security = (bought.body as { security: { id: string } }).security.id;
  const priced = await api.post("/api/v1/security_prices", { security_price: { security_id: security, date: "2024-04-04", price: "101" } }, key);
  const [price] = (priced.body?.security_prices ?? []) as { id: string }[];
  if (!price) throw new Error(`victim family: recording a price answered ${priced.status}: ${JSON.stringify(priced.body)}`);
  return { account, trade, security, price: price.id };
}

/** A budget of this period (with its lines), a rule with a run, and a recurring transaction. */
export async function planningRecords(api: ApiClient, key: { apiKey: string }, account: string, category: string) {
  const budget = idOf("budget", await api.post("/api/v1/budgets", { budget: { start_date: new Date().toISOString().slice(0, 10) } }, key));
  const lines = await api.get(`/api/v1/budget_categories?budget_id=${budget}&category_id=${category}`, key);
  const [line] = (lines.body?.budget_categories ?? []) as { id: string }[];
  if (!line) throw new Error(`victim family: no budget category: ${JSON.stringify(lines.body)}`);
  const rule = idOf(
    "rule",
    await api.post(
      "/api/v1/rules",
      {
        rule: {
          name: "Groceries",
          conditions: [{ condition_type: "transaction_name", operator: "like", value: "groceries" }],
          actions: [{ action_type: "set_transaction_category", value: category }],
        },
      },
      key,
    ),
  );
  const applied = await api.post(`/api/v1/rules/${rule}/apply`, {}, key);
  const run = (applied.body?.data as { id?: string } | undefined)?.id;
  if (typeof run !== "string") throw new Error(`victim family: applying the rule answered ${applied.status}: ${JSON.stringify(applied.body)}`);
  const recurring = idOf(
    "recurring transaction",
    await api.post(
      "/api/v1/recurring_transactions",
      {
        recurring_transaction: {
          account_id: account,
          name: "Gym",
          amount: "30",
          currency: "USD",
          expected_day_of_month: 5,
          last_occurrence_date: "2024-04-05",
          next_expected_date: "2024-05-05",
        },
      },
      key,
    ),
  );
  return { budget, line: line.id, rule, run, recurring };
}

/** A provider of the family at the test OpenID provider, and a member signed up through it (their SSO identity). */
async function ssoRecords(api: ApiClient, idp: TestOidcProvider, token: string) {
  const provider = idOf(
    "sso provider",
    await api.post("/api/v1/sso_providers", { sso_provider: ssoProviderSettings(idp, VICTIM_IDP_SECRET, "victim-idp") }, { token }),
  );
  const back = await ssoSignIn(api, idp, provider, VICTIM_SSO_USER.sub);
  const created = await api.post("/api/v1/auth/sso_create_account", { linking_code: back.searchParams.get("linking_code") });
  if (created.status !== 200) throw new Error(`victim family: sso account answered ${created.status}: ${JSON.stringify(created.body)}`);
  const ssoUser = { token: created.body.access_token as string };
  const [identity] = (await api.get("/api/v1/sso_identities", ssoUser)).body.sso_identities as { id: string }[];
  if (!identity) throw new Error("victim family: the SSO user has no identity");
  return { provider, identity: { id: identity.id, owner: ssoUser } };
}

/**
 * A family with one real record of every kind a route's path can name, made through the API
 * (the fuzz family's records, plus an API key, a rejected transfer, balances and an SSO identity).
 */
export async function createVictimFamily(api: ApiClient, idp: TestOidcProvider): Promise<VictimFamily> {
  const family = await createFuzzFamily(api, 0);
  const { admin } = family;
  const key = { apiKey: admin.writeKey };
  const owner: Owner = { token: admin.accessToken, apiKey: admin.writeKey };
  const stable = (kind: string): OwnedRecord => {
    const id = family.ids[kind]?.stable[0];
    if (!id) throw new Error(`victim family: no ${kind}`);
    return { id, owner };
  };

  // Records that point at the stable ones, so a list filtered by any of them has something to leak.
  const [checking = "", category = ""] = [stable("accounts").id, stable("categories").id];
  idOf("subcategory", await api.post("/api/v1/categories", { category: { name: "Victim child", parent_id: category } }, key));
  const categorised = { account_id: checking, date: "2024-04-01", amount: "42", name: "Groceries", category_id: category };
  idOf("categorised transaction", await api.post("/api/v1/transactions", { transaction: categorised }, key));
  idOf("valuation", await api.post("/api/v1/valuations", { valuation: { account_id: checking, amount: "900", date: "2024-04-02" } }, key));

  const investments = await investmentRecords(api, key, category);
  const planning = await planningRecords(api, key, checking, category);

  const apiKey = idOf("api key", await api.post("/api/v1/api_keys", { api_key: { name: "Victim", scopes: ["read"] } }, { token: admin.accessToken }));
  const rejected = await rejectedTransfer(api, key, checking);
  const sso = await ssoRecords(api, idp, admin.accessToken);
  await syncsSettled(api, key);
  const familyExport = await completedExport(api, key);
  const connection = await providerConnection(api, key);
  const chat = await answeredChat(api, key);
  const importSession = idOf("import session", await api.post("/api/v1/import_sessions", { expected_chunks: 2 }, key));
  // Left unpublished: reading it back later finds it unchanged.
  const csvImport = idOf(
    "import",
    await api.post(
      "/api/v1/imports",
      { type: "TransactionImport", account_id: checking, raw_file_content: "date,amount,name\n03/01/2024,-5.00,Victim row" },
      key,
    ),
  );
  const [balance] = (await api.get("/api/v1/balances?per_page=1", key)).body.balances as { id: string }[];
  const [sync] = (await api.get("/api/v1/syncs?per_page=1", key)).body.data as { id: string }[];
  if (!balance || !sync) throw new Error("victim family: no balance or sync");
  const [holding] = (await api.get(`/api/v1/holdings?account_id=${investments.account}&per_page=1`, key)).body.holdings as { id: string }[];
  if (!holding) throw new Error("victim family: no holding");

  return {
    admin,
    records: {
      accounts: stable("accounts"),
      transactions: stable("transactions"),
      valuations: stable("valuations"),
      transfers: stable("transfers"),
      rejected_transfers: { id: rejected, owner },
      balances: { id: balance.id, owner },
      exchange_rates: stable("exchange_rates"),
      syncs: { id: sync.id, owner },
      categories: stable("categories"),
      tags: stable("tags"),
      merchants: stable("merchants"),
      users: { id: family.memberId, owner },
      invitations: stable("invitations"),
      api_keys: { id: apiKey, owner },
      sso_providers: { id: sso.provider, owner },
      sso_identities: sso.identity,
      investment_accounts: { id: investments.account, owner },
      trades: { id: investments.trade, owner },
      securities: { id: investments.security, owner },
      security_prices: { id: investments.price, owner },
      holdings: { id: holding.id, owner },
      budgets: { id: planning.budget, owner },
      budget_categories: { id: planning.line, owner },
      rules: { id: planning.rule, owner },
      rule_runs: { id: planning.run, owner },
      recurring_transactions: { id: planning.recurring, owner },
      family_exports: { id: familyExport, owner },
      imports: { id: csvImport, owner },
      import_sessions: { id: importSession, owner },
      provider_connections: { id: connection, owner },
      chats: { id: chat.chat, owner, childId: chat.question },
    },
  };
}
