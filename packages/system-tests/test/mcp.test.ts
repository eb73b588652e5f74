import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ASSISTANT_TOOL_NAMES, ASSISTANT_TOOLS } from "@hearth/contracts";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { McpError } from "@modelcontextprotocol/sdk/types.js";
import { testPostgresAdminUrl } from "@hearth/test-kit";
import { apiClient, eventually, signUpUser, startSystem, type ApiClient, type TestSystem, type TestUser } from "../src";

/**
 * The assistant's tools over the Model Context Protocol at /mcp, driven by the official SDK's own
 * client over Streamable HTTP, authenticated with a family's API keys: the tools a key is offered,
 * each read tool's figures against what the HTTP API reports, writes, refusals, credentials, and
 * another family's data never reached.
 */

let system: TestSystem;
let api: ApiClient;
let alice: TestUser;
let bob: TestUser;
const clients: Client[] = [];

const today = new Date().toISOString().slice(0, 10);
const monthStart = `${today.slice(0, 8)}01`;
const READ_TOOLS = ASSISTANT_TOOL_NAMES.filter((name) => ASSISTANT_TOOLS[name].access === "read");

/** An MCP client connected to the gateway's /mcp with these headers (e.g. X-Api-Key). */
async function connect(headers: Record<string, string>): Promise<Client> {
  const client = new Client({ name: "hearth-system-test", version: "1.0.0" });
  await client.connect(new StreamableHTTPClientTransport(new URL(`${system.url}/mcp`), { requestInit: { headers } }));
  clients.push(client);
  return client;
}

/** Calls a tool; its text content is the JSON of its structured content. */
async function call(client: Client, name: string, args?: Record<string, unknown>): Promise<{ data: any; isError: boolean }> {
  const result = await client.callTool({ name, ...(args && { arguments: args }) });
  const content = result.content as { type: string; text: string }[];
  expect(content).toHaveLength(1);
  expect(content[0]!.type).toBe("text");
  const data = JSON.parse(content[0]!.text);
  expect(result.structuredContent).toEqual(data);
  return { data, isError: result.isError === true };
}

/** Calls a tool that must answer data, not `{ error, hint }`. */
async function data(client: Client, name: string, args?: Record<string, unknown>): Promise<any> {
  const answer = await call(client, name, args);
  expect(answer.isError, JSON.stringify(answer.data)).toBe(false);
  return answer.data;
}

/** A raw POST of one JSON-RPC message to /mcp, as an MCP client sends it. */
function postMcp(message: unknown, headers: Record<string, string> = {}) {
  return fetch(`${system.url}/mcp`, {
    method: "POST",
    headers: { "content-type": "application/json", accept: "application/json, text/event-stream", ...headers },
    body: JSON.stringify(message),
  });
}

const listToolsMessage = { jsonrpc: "2.0", id: 1, method: "tools/list", params: {} };

beforeAll(async () => {
  system = await startSystem({ adminUrl: testPostgresAdminUrl() });
  api = apiClient(system.url);
  [alice, bob] = await Promise.all([signUpUser(api, "mcp"), signUpUser(api, "mcp-other")]);
});
afterAll(async () => {
  await Promise.all(clients.map((client) => client.close().catch(() => {})));
  await system?.stop();
});

describe("MCP at /mcp: the tools a credential is offered", () => {
  it("lists the read tools for a read key, and the write tools too for a read_write key, with JSON Schemas", async () => {
    const read = await (await connect({ "X-Api-Key": alice.readKey })).listTools();
    expect(read.tools.map((tool) => tool.name)).toEqual(READ_TOOLS);
    expect(read.tools.map((tool) => tool.name)).not.toContain("create_tag");
    expect(read.tools.every((tool) => tool.annotations?.readOnlyHint === true)).toBe(true);

    const write = await (await connect({ "X-Api-Key": alice.writeKey })).listTools();
    expect(write.tools.map((tool) => tool.name)).toEqual([...READ_TOOLS, "create_tag", "update_transaction"]);
    const statement = write.tools.find((tool) => tool.name === "get_income_statement")!;
    expect(statement.description).toBe(ASSISTANT_TOOLS.get_income_statement.description);
    expect(statement.inputSchema).toMatchObject({ type: "object", required: ["start_date", "end_date"], properties: { start_date: { format: "date" } } });
    expect(write.tools.find((tool) => tool.name === "update_transaction")!.annotations?.readOnlyHint).toBe(false);
  });

  it("serves a bearer token too", async () => {
    const tools = await (await connect({ Authorization: `Bearer ${alice.accessToken}` })).listTools();
    expect(tools.tools.map((tool) => tool.name)).toContain("get_accounts");
  });

  it("initializes as the hearth server with the tools capability", async () => {
    const client = await connect({ "X-Api-Key": alice.readKey });
    expect(client.getServerVersion()?.name).toBe("hearth");
    expect(client.getServerCapabilities()?.tools).toBeDefined();
    expect(client.getInstructions()).toMatch(/_cents/);
  });
});

describe("MCP at /mcp: the read tools against the HTTP API", () => {
  let checking: string;
  let groceries: string;
  let shop: string;
  let client: Client;

  beforeAll(async () => {
    const write = { apiKey: alice.writeKey };
    const account = await api.post(
      "/api/v1/accounts",
      { account: { name: "Joint Checking", account_type: "depository", balance: "2500.00", opening_balance_date: "2024-01-01" } },
      write,
    );
    expect(account.status, JSON.stringify(account.body)).toBe(201);
    checking = account.body.id;
    const categories = await api.get("/api/v1/categories?per_page=100", { apiKey: alice.readKey });
    groceries = (categories.body.categories as { id: string; name: string }[]).find((c) => c.name === "Groceries")!.id;
    const merchant = await api.post("/api/v1/merchants", { merchant: { name: "Corner Market" } }, write);
    expect(merchant.status, JSON.stringify(merchant.body)).toBe(201);
    const added: string[] = [];
    for (const [amount, nature, name] of [
      ["12.34", "expense", "Market"],
      ["45.66", "expense", "Market"],
      ["1000.00", "income", "Paycheck"],
    ] as const) {
      const res = await api.post(
        "/api/v1/transactions",
        {
          transaction: {
            account_id: checking,
            date: monthStart,
            amount,
            name,
            nature,
            ...(nature === "expense" && { category_id: groceries, merchant_id: merchant.body.id }),
          },
        },
        write,
      );
      expect(res.status, JSON.stringify(res.body)).toBe(201);
      added.push(res.body.id);
    }
    shop = added[0]!;
    const recurring = await api.post(
      "/api/v1/recurring_transactions",
      {
        recurring_transaction: {
          account_id: checking,
          name: "Streaming",
          amount: "12.99",
          currency: "USD",
          expected_day_of_month: 5,
          last_occurrence_date: monthStart,
          next_expected_date: monthStart,
        },
      },
      write,
    );
    expect(recurring.status, JSON.stringify(recurring.body)).toBe(201);
    const brokerage = await api.post(
      "/api/v1/accounts",
      { account: { name: "Brokerage", account_type: "investment", balance: "5000", opening_balance_date: "2024-01-01" } },
      write,
    );
    const trade = await api.post(
      "/api/v1/trades",
      { trade: { account_id: brokerage.body.id, type: "buy", date: monthStart, qty: 10, price: "100", ticker: "AAPL" } },
      write,
    );
    expect(trade.status, JSON.stringify(trade.body)).toBe(201);
    const budget = await api.post("/api/v1/budgets", { budget: { start_date: monthStart } }, write);
    expect(budget.status, JSON.stringify(budget.body)).toBeLessThan(300);
    expect((await api.patch(`/api/v1/budgets/${budget.body.id}`, { budget: { budgeted_spending: "500" } }, write)).status).toBe(200);
    // Once the sync has applied the transactions: 2,500.00 - 58.00 + 1,000.00.
    await eventually(async () => {
      const res = await api.get(`/api/v1/accounts/${checking}`, { apiKey: alice.readKey });
      expect(res.body.balance_cents).toBe(344200);
      const holdings = await api.get("/api/v1/holdings", { apiKey: alice.readKey });
      expect(holdings.body.pagination.total_count).toBeGreaterThan(0);
      // Every sync done (the brokerage's too): the tools and the API then read one ledger, not one mid-sync.
      expect(await system.db.finance.sync.count({ where: { status: { in: ["pending", "syncing"] } } })).toBe(0);
    });
    client = await connect({ "X-Api-Key": alice.readKey });
  });

  it("get_accounts: each account's balance is the one GET /api/v1/accounts reports", async () => {
    const listed = (await api.get("/api/v1/accounts", { apiKey: alice.readKey })).body.accounts as any[];
    const answer = await data(client, "get_accounts");
    expect(answer.total_count).toBe(listed.length);
    for (const account of listed) {
      expect(answer.accounts.find((row: any) => row.id === account.id)).toMatchObject({
        name: account.name,
        balance: account.balance,
        balance_cents: account.balance_cents,
        currency: account.currency,
      });
    }
    expect(answer.accounts.find((row: any) => row.id === checking).balance_cents).toBe(344200);
  });

  it("get_balance_sheet: the net worth of GET /api/v1/balance_sheet", async () => {
    const sheet = (await api.get("/api/v1/balance_sheet", { apiKey: alice.readKey })).body;
    const answer = await data(client, "get_balance_sheet");
    expect(answer).toMatchObject({
      currency: sheet.currency,
      net_worth: sheet.net_worth.formatted,
      assets: sheet.assets.formatted,
      liabilities: sheet.liabilities.formatted,
    });
    expect(answer.net_worth_cents).toBe(Math.round(Number(sheet.net_worth.amount) * 100));
  });

  it("get_transactions: the rows and amounts of GET /api/v1/transactions", async () => {
    const listed = (await api.get(`/api/v1/transactions?account_id=${checking}&per_page=100`, { apiKey: alice.readKey })).body;
    const answer = await data(client, "get_transactions", { account_ids: [checking], per_page: 100 });
    expect(answer.total_count).toBe(listed.pagination.total_count);
    expect(answer.transactions.map((row: any) => [row.id, row.amount_cents]).sort()).toEqual(
      (listed.transactions as any[]).map((row) => [row.id, row.amount_cents]).sort(),
    );
    const groceriesOnly = await data(client, "get_transactions", { category_ids: [groceries] });
    expect(groceriesOnly.transactions.map((row: any) => row.amount_cents).sort()).toEqual([1234, 4566]);
  });

  it("get_income_statement: the month's income and spending", async () => {
    const answer = await data(client, "get_income_statement", { start_date: monthStart, end_date: today });
    expect(answer).toMatchObject({ currency: "USD", income_total_cents: 100000, spending_total_cents: 5800, net_cents: 94200 });
    expect(answer.spending).toEqual([expect.objectContaining({ id: groceries, name: "Groceries", amount_cents: 5800, transactions_count: 2 })]);
  });

  it("get_budget: the figures of GET /api/v1/budgets/:id", async () => {
    const summary = (await api.get(`/api/v1/budgets?start_date=${monthStart}`, { apiKey: alice.readKey })).body.budgets[0];
    const budget = (await api.get(`/api/v1/budgets/${summary.id}`, { apiKey: alice.readKey })).body;
    const answer = await data(client, "get_budget");
    expect(answer).toMatchObject({
      start_date: monthStart,
      budgeted_spending_cents: 50000,
      actual_spending_cents: budget.actual_spending_cents,
      available_to_spend_cents: budget.available_to_spend_cents,
    });
    expect(answer.actual_spending_cents).toBe(5800);
  });

  it("get_holdings: the latest day's holdings of GET /api/v1/holdings", async () => {
    const answer = await data(client, "get_holdings");
    const listed = (await api.get(`/api/v1/holdings?date=${answer.date}`, { apiKey: alice.readKey })).body;
    expect(answer.total_count).toBe(listed.pagination.total_count);
    expect(answer.holdings[0]).toMatchObject({ security: { ticker: "AAPL" }, amount_cents: listed.holdings[0].amount_cents });
  });

  it("get_recurring_transactions, get_categories, get_merchants and get_tags: the lists of the API", async () => {
    const recurring = (await api.get("/api/v1/recurring_transactions", { apiKey: alice.readKey })).body;
    const answer = await data(client, "get_recurring_transactions");
    expect(answer.recurring_transactions.map((row: any) => row.id)).toEqual(recurring.recurring_transactions.map((row: any) => row.id));
    expect(answer.recurring_transactions[0]).toMatchObject({ name: "Streaming", amount_cents: 1299 });

    const categories = (await api.get("/api/v1/categories?per_page=100", { apiKey: alice.readKey })).body;
    expect((await data(client, "get_categories")).total_count).toBe(categories.pagination.total_count);

    const merchants = (await api.get("/api/v1/merchants", { apiKey: alice.readKey })).body as any[];
    expect((await data(client, "get_merchants", { search: "corner" })).merchants).toEqual(
      merchants.filter((m) => m.name === "Corner Market").map((m) => ({ id: m.id, name: m.name })),
    );

    const tags = (await api.get("/api/v1/tags", { apiKey: alice.readKey })).body as any[];
    expect((await data(client, "get_tags")).total_count).toBe(tags.length);
  });

  it("covers every read tool", async () => {
    const called = ["get_accounts", "get_balance_sheet", "get_transactions", "get_income_statement", "get_budget", "get_holdings"];
    called.push("get_recurring_transactions", "get_categories", "get_merchants", "get_tags");
    expect(called.sort()).toEqual([...READ_TOOLS].sort());
  });

  describe("writes", () => {
    it("create_tag with a read_write key makes a tag GET /api/v1/tags lists; with a read key it is refused", async () => {
      const writer = await connect({ "X-Api-Key": alice.writeKey });
      const created = await data(writer, "create_tag", { name: "From MCP", color: "#4da568" });
      expect(created).toMatchObject({ tag: { name: "From MCP", color: "#4da568" } });
      const tags = (await api.get("/api/v1/tags", { apiKey: alice.readKey })).body as any[];
      expect(tags).toContainEqual(expect.objectContaining({ id: created.tag.id, name: "From MCP" }));

      const refused = await call(client, "create_tag", { name: "Sneaky" });
      expect(refused).toEqual({ isError: true, data: { error: "forbidden", hint: expect.stringContaining("read_write") } });
      const after = (await api.get("/api/v1/tags", { apiKey: alice.readKey })).body as any[];
      expect(after.map((tag) => tag.name)).not.toContain("Sneaky");
      // A name finance refuses (taken) is a result to act on, not a failure.
      expect(await call(writer, "create_tag", { name: "From MCP" })).toMatchObject({ isError: true, data: { error: "validation_failed" } });
    });

    it("update_transaction with a read_write key changes what GET /api/v1/transactions/:id shows", async () => {
      const writer = await connect({ "X-Api-Key": alice.writeKey });
      const updated = await data(writer, "update_transaction", { id: shop, notes: "set over MCP" });
      expect(updated.transaction).toMatchObject({ id: shop, notes: "set over MCP" });
      expect((await api.get(`/api/v1/transactions/${shop}`, { apiKey: alice.readKey })).body.notes).toBe("set over MCP");
    });
  });

  it("another family's credential sees none of this family's data and cannot change it", async () => {
    const other = await connect({ "X-Api-Key": bob.writeKey });
    expect((await data(other, "get_accounts")).accounts).toEqual([]);
    expect((await data(other, "get_transactions")).transactions).toEqual([]);
    expect((await data(other, "get_tags")).tags.map((tag: any) => tag.name)).not.toContain("From MCP");
    expect((await data(other, "get_merchants", { search: "corner" })).merchants).toEqual([]);
    const update = await call(other, "update_transaction", { id: shop, notes: "not yours" });
    expect(update).toMatchObject({ isError: true, data: { error: expect.stringMatching(/not_found/) } });
    expect((await api.get(`/api/v1/transactions/${shop}`, { apiKey: alice.readKey })).body.notes).toBe("set over MCP");
  });
});

describe("MCP at /mcp: refusals", () => {
  it("an unknown tool and bad arguments are error results with a hint", async () => {
    const client = await connect({ "X-Api-Key": alice.readKey });
    const unknown = await call(client, "get_weather", {});
    expect(unknown).toEqual({ isError: true, data: { error: "unknown_tool", hint: expect.stringContaining("get_accounts") } });
    const bad = await call(client, "get_transactions", { per_page: 1000 });
    expect(bad).toEqual({ isError: true, data: { error: "invalid_arguments", hint: expect.stringContaining("per_page") } });
    const missing = await call(client, "get_income_statement");
    expect(missing).toMatchObject({ isError: true, data: { error: "invalid_arguments", hint: expect.stringContaining("start_date") } });
    // Arguments past chat's 64 KB are refused before any tool runs.
    const huge = await call(client, "get_merchants", { search: "x".repeat(70_000) });
    expect(huge).toEqual({ isError: true, data: { error: "invalid_arguments", hint: expect.stringContaining("64 KB") } });
    const longName = await call(client, "x".repeat(101), {});
    expect(longName).toMatchObject({ isError: true, data: { error: "invalid_arguments" } });
  });

  it("a key revoked on this gateway is refused by it at once, every time (its cache is dropped as the revocation commits)", async () => {
    for (let i = 0; i < 10; i++) {
      const created = await api.post("/api/v1/api_keys", { api_key: { name: `Revoked ${i}`, scopes: ["read"] } }, { token: alice.accessToken });
      // Used once, so the gateway holds it in its credential cache.
      expect((await postMcp(listToolsMessage, { "X-Api-Key": created.body.key })).status).toBe(200);
      expect((await api.delete(`/api/v1/api_keys/${created.body.id}`, { token: alice.accessToken })).status).toBe(204);
      expect((await postMcp(listToolsMessage, { "X-Api-Key": created.body.key })).status).toBe(401);
    }
  });

  it("no credential, a wrong key or a revoked key: the API's 401, and the SDK client cannot connect", async () => {
    const none = await postMcp(listToolsMessage);
    expect(none.status).toBe(401);
    expect(await none.json()).toMatchObject({ error: "unauthorized" });
    expect((await postMcp(listToolsMessage, { "X-Api-Key": "not-a-key" })).status).toBe(401);

    const created = await api.post("/api/v1/api_keys", { api_key: { name: "Short-lived", scopes: ["read"] } }, { token: alice.accessToken });
    expect(created.status).toBe(201);
    const client = await connect({ "X-Api-Key": created.body.key });
    expect((await client.listTools()).tools.length).toBe(READ_TOOLS.length);
    expect((await api.delete(`/api/v1/api_keys/${created.body.id}`, { token: alice.accessToken })).status).toBe(204);
    // Refused at once by the gateway that revoked it (its own cache is dropped as the revocation commits).
    expect((await postMcp(listToolsMessage, { "X-Api-Key": created.body.key })).status).toBe(401);
    await expect(client.listTools()).rejects.toThrow(/401|unauthorized/i);

    await expect(connect({})).rejects.toThrow(/401|unauthorized/i);
  });

  it("counts each request against the credential's rate limit", async () => {
    const res = await postMcp(listToolsMessage, { "X-Api-Key": alice.readKey });
    expect(res.status).toBe(200);
    expect(res.headers.get("x-ratelimit-limit")).toMatch(/^\d+$/);
    expect(await res.json()).toMatchObject({ jsonrpc: "2.0", id: 1, result: { tools: expect.any(Array) } });
  });

  it("answers GET and DELETE 405 (no session, no stream) and refuses a JSON-RPC batch", async () => {
    const headers = { "X-Api-Key": alice.readKey, accept: "text/event-stream" };
    for (const method of ["GET", "DELETE"]) {
      const res = await fetch(`${system.url}/mcp`, { method, headers });
      expect(res.status).toBe(405);
      expect(res.headers.get("allow")).toBe("POST");
    }
    const batch = await postMcp([listToolsMessage, { ...listToolsMessage, id: 2 }], { "X-Api-Key": alice.readKey });
    expect(batch.status).toBe(400);
    expect(await batch.json()).toMatchObject({ jsonrpc: "2.0", error: { code: -32600 } });
    // A body that is not JSON is the API's 415/400, never read as MCP.
    const text = await fetch(`${system.url}/mcp`, { method: "POST", headers: { "X-Api-Key": alice.readKey, "content-type": "text/plain" }, body: "hi" });
    expect(text.status).toBe(415);
  });

  it("chat down: a JSON-RPC error at once, not a crash or a hang; back when chat is", async () => {
    const client = await connect({ "X-Api-Key": alice.readKey });
    await system.services.chat.stop();
    try {
      const started = Date.now();
      await expect(client.listTools()).rejects.toThrow(McpError);
      await expect(client.callTool({ name: "get_accounts", arguments: {} })).rejects.toThrow(/chat service is unavailable/);
      expect(Date.now() - started).toBeLessThan(5000);
    } finally {
      await system.services.chat.start();
    }
    expect((await data(client, "get_tags")).tags).toBeDefined();
  });
});
