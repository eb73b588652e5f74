import { randomBytes } from "node:crypto";
import type { ApiClient, ApiResponse } from "../api-client";
import { DEVICE, TEST_PASSWORD, signUpUser, type TestUser } from "../users";

/** Ids of one kind of record: `stable` ones the fuzz reads and edits, `disposable` ones its DELETEs may take. */
export interface RecordIds {
  stable: string[];
  disposable: string[];
}

/** A family with a few records of every kind, so generated requests can name records that exist. */
export interface FuzzFamily {
  admin: TestUser;
  memberId: string;
  /** By the path segment before `:id` (`accounts`, `tags`, `users`, `sso`, ...). */
  ids: Record<string, RecordIds>;
}

function created(what: string, res: ApiResponse): string {
  if (res.status !== 201 && res.status !== 200) throw new Error(`fuzz family: ${what} answered ${res.status}: ${JSON.stringify(res.body)}`);
  const body = res.body as Record<string, any>;
  const id = body.id ?? Object.values(body).find((value) => value && typeof value === "object" && "id" in value)?.id;
  if (typeof id !== "string") throw new Error(`fuzz family: ${what} has no id: ${JSON.stringify(body)}`);
  return id;
}

/** Signs up an admin, invites a member, and creates the records; `disposable` of each kind for DELETE. */
export async function createFuzzFamily(api: ApiClient, disposable = 3): Promise<FuzzFamily> {
  const admin = await signUpUser(api, "fuzz", { ai: true });
  const token = { token: admin.accessToken };
  const key = { apiKey: admin.writeKey };

  const email = `fuzz-member-${randomBytes(4).toString("hex")}@example.com`;
  const invite = await api.post("/api/v1/invitations", { invitation: { email } }, token);
  const member = await api.post("/api/v1/auth/signup", { user: { email, password: TEST_PASSWORD }, device: DEVICE, invite_code: invite.body.invite_code });
  const memberId = created("member", member);

  const many = async (what: string, count: number, make: (i: number) => Promise<ApiResponse>) => {
    const ids: string[] = [];
    for (let i = 0; i < count; i++) ids.push(created(what, await make(i)));
    return ids;
  };
  const both = async (what: string, make: (i: number) => Promise<ApiResponse>): Promise<RecordIds> => ({
    stable: await many(what, 1, make),
    disposable: await many(what, disposable, (i) => make(i + 1)),
  });

  const account = (name: string, account_type: string) =>
    api.post("/api/v1/accounts", { account: { name, account_type, balance: "100.00", opening_balance_date: "2024-01-01" } }, key);
  const accounts = {
    stable: [created("account", await account("Checking", "depository")), created("account", await account("Card", "credit_card"))],
    disposable: await many("account", disposable, (i) => account(`Spare ${i}`, "other_asset")),
  };
  const [checking = "", card = ""] = accounts.stable;
  const tags = await both("tag", (i) => api.post("/api/v1/tags", { tag: { name: `Tag ${i}` } }, key));
  const merchants = await both("merchant", (i) => api.post("/api/v1/merchants", { merchant: { name: `Shop ${i}` } }, key));
  const categories = await both("category", (i) => api.post("/api/v1/categories", { category: { name: `Fuzz ${i}` } }, key));
  const transactions = await both("transaction", (i) =>
    api.post(
      "/api/v1/transactions",
      {
        transaction: {
          account_id: checking,
          date: "2024-02-01",
          amount: `${i + 1}.50`,
          name: `Coffee ${i}`,
          tag_ids: tags.stable,
          merchant_id: merchants.stable[0],
        },
      },
      key,
    ),
  );
  const valuations = {
    stable: [created("valuation", await api.post("/api/v1/valuations", { valuation: { account_id: card, amount: "50", date: "2024-03-01" } }, key))],
    disposable: [],
  };
  const transfers = await both("transfer", (i) =>
    api.post("/api/v1/transfers", { transfer: { from_account_id: checking, to_account_id: card, amount: `${i + 1}`, date: "2024-02-02" } }, key),
  );
  const exchangeRates = {
    stable: [created("exchange rate", await api.post("/api/v1/exchange_rates", { from: "EUR", to: "USD", date: "2024-01-01", rate: "1.1" }, key))],
    disposable: [],
  };
  const invitations = await both("invitation", (i) =>
    api.post("/api/v1/invitations", { invitation: { email: `fuzz-invitee-${i}-${randomBytes(3).toString("hex")}@example.com` } }, token),
  );
  // Never the keys the fuzz itself uses: revoking those would end the run.
  const apiKeys = {
    stable: [],
    disposable: await many("api key", disposable, (i) => api.post("/api/v1/api_keys", { api_key: { name: `Spare ${i}`, scopes: ["read"] } }, token)),
  };
  const provider = (i: number) =>
    api.post(
      "/api/v1/sso_providers",
      { sso_provider: { name: `fuzz-idp-${i}`, issuer: "http://127.0.0.1:9", client_id: "hearth", client_secret: "secret" } },
      token,
    );
  const ssoProviders = await both("sso provider", provider);
  const balances = (await api.get("/api/v1/balances?per_page=5", key)).body.balances.map((balance: { id: string }) => balance.id);
  await api.post("/api/v1/sync", undefined, key);
  const syncs = (await api.get("/api/v1/syncs?per_page=5", key)).body.data.map((sync: { id: string }) => sync.id);

  return {
    admin,
    memberId,
    ids: {
      accounts,
      tags,
      merchants,
      categories,
      transactions,
      valuations,
      transfers,
      exchange_rates: exchangeRates,
      invitations,
      api_keys: apiKeys,
      sso_providers: ssoProviders,
      sso: ssoProviders,
      // Never the admin's own id: demoting or suspending themselves would end the admin routes.
      users: { stable: [memberId], disposable: [] },
      balances: { stable: balances, disposable: [] },
      syncs: { stable: syncs, disposable: [] },
    },
  };
}
