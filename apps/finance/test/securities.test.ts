import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { SecurityCollectionSchema, SecuritySchema, type Actor } from "@hearth/contracts";
import type { AccountStatus, Prisma } from "../src/generated/prisma/client";
import { dateOf } from "../src/ledger/dates";
import { toSecurityRef, toSecurityResource } from "../src/securities/security-resource";
import { expectAppError, financeAs, newActor, startFinance, type RunningFinance } from "./support";

describe("security resource", () => {
  const row = {
    id: "0192f0c4-0000-7000-8000-000000000001",
    familyId: "0192f0c4-0000-7000-8000-000000000002",
    ticker: "AAPL",
    name: "Apple Inc.",
    kind: "standard" as const,
    countryCode: "US",
    exchangeMic: "XNGS",
    exchangeAcronym: "NASDAQ",
    exchangeOperatingMic: "XNAS",
    exchangeName: null,
    offline: false,
    offlineReason: null,
    websiteUrl: "https://www.apple.com",
    logoUrl: null,
    firstProviderPriceOn: dateOf("2020-01-02"),
    importId: null,
    createdAt: new Date("2024-01-15T10:00:00Z"),
    updatedAt: new Date("2024-01-16T10:00:00Z"),
  };

  it("is Sure's Security: dates as YYYY-MM-DD, timestamps ISO, the exchange name falling back to the MIC", () => {
    expect(toSecurityResource(row)).toEqual({
      id: row.id,
      ticker: "AAPL",
      name: "Apple Inc.",
      kind: "standard",
      country_code: "US",
      exchange_mic: "XNGS",
      exchange_acronym: "NASDAQ",
      exchange_operating_mic: "XNAS",
      exchange_name: "XNAS",
      offline: false,
      offline_reason: null,
      website_url: "https://www.apple.com",
      logo_url: null,
      first_provider_price_on: "2020-01-02",
      created_at: "2024-01-15T10:00:00.000Z",
      updated_at: "2024-01-16T10:00:00.000Z",
    });
    expect(toSecurityResource({ ...row, exchangeName: "Nasdaq", firstProviderPriceOn: null })).toMatchObject({
      exchange_name: "Nasdaq",
      first_provider_price_on: null,
    });
    expect(toSecurityResource({ ...row, exchangeOperatingMic: null }).exchange_name).toBeNull();
    expect(toSecurityRef(row)).toEqual({ id: row.id, ticker: "AAPL", name: "Apple Inc." });
  });
});

describe("securities API", () => {
  let finance: RunningFinance;
  beforeAll(async () => {
    finance = await startFinance();
  });
  afterAll(async () => finance?.stop());

  const as = (actor: Actor) => {
    const call = financeAs(finance, actor);
    return {
      list: async (query: Record<string, unknown> = {}) => SecurityCollectionSchema.parse(await call("securities.list", query)),
      get: async (id: string) => SecuritySchema.parse(await call("securities.get", { id })),
      call,
    };
  };

  async function investmentAccount(familyId: string, status: AccountStatus = "active") {
    return finance.db.account.create({ data: { familyId, name: "Brokerage", accountType: "investment", classification: "asset", currency: "USD", status } });
  }

  async function security(familyId: string, ticker: string, data: Partial<Prisma.SecurityUncheckedCreateInput> = {}) {
    return finance.db.security.create({ data: { familyId, ticker, ...data } });
  }

  /** A buy as the trades endpoint would store it: an entry of kind trade and its trades row. */
  async function trade(familyId: string, accountId: string, securityId: string) {
    const entry = await finance.db.entry.create({
      data: { familyId, accountId, kind: "trade", date: dateOf("2024-01-02"), name: "Buy 1 share", amountCents: 10_000n, currency: "USD" },
    });
    await finance.db.trade.create({ data: { entryId: entry.id, familyId, securityId, qty: "1", price: "100", currency: "USD" } });
  }

  /** A family with a brokerage account trading `tickers` (security rows made with `data`), and the securities. */
  async function familyTrading(actor: Actor, tickers: Record<string, Partial<Prisma.SecurityUncheckedCreateInput>>) {
    const account = await investmentAccount(actor.familyId);
    const made: Record<string, Awaited<ReturnType<typeof security>>> = {};
    for (const [ticker, data] of Object.entries(tickers)) {
      made[ticker] = await security(actor.familyId, ticker, data);
      await trade(actor.familyId, account.id, made[ticker].id);
    }
    return { account, securities: made };
  }

  it("lists only the securities traded in the family's accounts, by ticker", async () => {
    const alice = newActor();
    const { securities } = await familyTrading(alice, {
      MSFT: {},
      AAPL: { exchangeOperatingMic: "XNAS" },
      "CASH-X": { kind: "cash", name: "Cash", offline: true },
    });
    const untraded = await security(alice.familyId, "IDLE");
    const closing = await investmentAccount(alice.familyId, "pending_deletion");
    const leaving = await security(alice.familyId, "GONE");
    await trade(alice.familyId, closing.id, leaving.id);

    const listed = await as(alice).list();
    expect(listed.securities.map((item) => item.ticker)).toEqual(["AAPL", "CASH-X", "MSFT"]);
    expect(listed.pagination).toEqual({ page: 1, per_page: 25, total_count: 3, total_pages: 1 });
    expect(await as(alice).get(securities.AAPL!.id)).toEqual(listed.securities[0]);
    for (const hidden of [untraded, leaving]) {
      const error = await expectAppError(as(alice).get(hidden.id), "record_not_found");
      expect(error.message).toBe("Security not found");
    }
  });

  it("lists a security traded in two accounts once", async () => {
    const alice = newActor();
    const { securities } = await familyTrading(alice, { AAPL: {} });
    const second = await investmentAccount(alice.familyId);
    await trade(alice.familyId, second.id, securities.AAPL!.id);
    await trade(alice.familyId, second.id, securities.AAPL!.id);
    expect((await as(alice).list()).securities.map((item) => item.id)).toEqual([securities.AAPL!.id]);
  });

  it("filters by ticker and MIC without regard to case, by kind and by offline", async () => {
    const alice = newActor();
    const { securities } = await familyTrading(alice, {
      AAPL: { exchangeOperatingMic: "XNAS" },
      AAPLX: { exchangeOperatingMic: "XNAS", offline: true },
      VOD: { exchangeOperatingMic: "XLON" },
      "CASH-1": { kind: "cash", offline: true },
    });
    const tickers = async (query: Record<string, unknown>) => (await as(alice).list(query)).securities.map((item) => item.ticker);
    expect(await tickers({ ticker: " aapl " })).toEqual(["AAPL"]);
    expect(await tickers({ ticker: "AAP" })).toEqual([]);
    expect(await tickers({ exchange_operating_mic: " xnas " })).toEqual(["AAPL", "AAPLX"]);
    expect(await tickers({ kind: "cash" })).toEqual(["CASH-1"]);
    expect(await tickers({ kind: "standard" })).toEqual(["AAPL", "AAPLX", "VOD"]);
    expect(await tickers({ offline: "true" })).toEqual(["AAPLX", "CASH-1"]);
    expect(await tickers({ offline: "0" })).toEqual(["AAPL", "VOD"]);
    expect(await tickers({ exchange_operating_mic: "XNAS", offline: false })).toEqual(["AAPL"]);
    expect((await as(alice).list({ ticker: "vod" })).securities[0]!.id).toBe(securities.VOD!.id);
    await expectAppError(as(alice).call("securities.list", { kind: "bond" }), "validation_failed");
    await expectAppError(as(alice).call("securities.list", { offline: "" }), "validation_failed");
  });

  it("keeps families apart: another family's security is 404 and never listed, even with the same ticker", async () => {
    const alice = newActor();
    const bob = newActor();
    const { securities: mine } = await familyTrading(alice, { AAPL: {} });
    const { securities: theirs } = await familyTrading(bob, { AAPL: {}, TSLA: {} });
    expect((await as(alice).list()).securities.map((item) => item.id)).toEqual([mine.AAPL!.id]);
    expect((await as(alice).list({ ticker: "TSLA" })).securities).toEqual([]);
    const error = await expectAppError(as(alice).get(theirs.AAPL!.id), "record_not_found");
    expect(error.message).toBe("Security not found");
    expect((await as(bob).get(theirs.AAPL!.id)).ticker).toBe("AAPL");
    await expectAppError(as(alice).call("securities.get", { id: "not-a-uuid" }), "validation_failed");
  });

  it("pages by ticker then id, and reads per_page over 100 as 100", async () => {
    const alice = newActor();
    const tickers = Array.from({ length: 12 }, (_, index) => `T${String(index).padStart(2, "0")}`);
    await familyTrading(alice, Object.fromEntries(tickers.map((ticker) => [ticker, {}])));
    const pageTwo = await as(alice).list({ per_page: 5, page: 2 });
    expect(pageTwo.securities.map((item) => item.ticker)).toEqual(tickers.slice(5, 10));
    expect(pageTwo.pagination).toEqual({ page: 2, per_page: 5, total_count: 12, total_pages: 3 });
    const wide = await as(alice).list({ per_page: 250 });
    expect(wide.pagination).toMatchObject({ per_page: 100, total_count: 12 });
    expect(wide.securities).toHaveLength(12);
  });

  it("shows a security recorded by ticker once a trade uses it", async () => {
    const alice = newActor();
    const call = financeAs(finance, alice);
    const { security_prices } = await call("securityPrices.record", { security_price: { ticker: "nvda", date: "2024-01-02", price: "500" } });
    const id = security_prices[0].security.id as string;
    await expectAppError(as(alice).get(id), "record_not_found");
    const account = await investmentAccount(alice.familyId);
    await trade(alice.familyId, account.id, id);
    expect(await as(alice).get(id)).toMatchObject({ id, ticker: "NVDA", offline: true, kind: "standard", name: null });
  });
});
