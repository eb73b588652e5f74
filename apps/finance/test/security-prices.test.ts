import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { RecordedSecurityPricesSchema, SecurityPriceCollectionSchema, SecurityPriceSchema, type Actor, type SecurityPrice } from "@hearth/contracts";
import { Prisma } from "../src/generated/prisma/client";
import { addDays, dateOf, isoDateOf, todayIso } from "../src/ledger/dates";
import { CARRY_FORWARD_MAX_DAYS, dailyPriceSeries, parsePriceText, realPricesByCurrency } from "../src/securities/price-importer";
import { toSecurityPriceResource } from "../src/securities/security-price-resource";
import { expectAppError, financeAs, newActor, startFinance, type RunningFinance } from "./support";

describe("price helpers", () => {
  it("take a price above 0 with at most four decimals, as four-decimal text", () => {
    expect(parsePriceText("215")).toEqual({ price: "215.0000" });
    expect(parsePriceText(" 1.2345 ")).toEqual({ price: "1.2345" });
    expect(parsePriceText("0.0001")).toEqual({ price: "0.0001" });
    expect(parsePriceText("3.50000000")).toEqual({ price: "3.5000" }); // trailing zeros are no precision
    expect(parsePriceText("0")).toEqual({ error: "Price must be greater than 0" });
    expect(parsePriceText("0.0000")).toEqual({ error: "Price must be greater than 0" });
    expect(parsePriceText("-5")).toEqual({ error: "Price must be greater than 0" });
    expect(parsePriceText("1.23456")).toEqual({ error: "Price has at most 4 decimal places" });
    expect(parsePriceText("abc")).toEqual({ error: "Price must be a number like 12.34" });
  });

  it("group an import's prices per currency, one a day (the last wins), sorted, dropping prices of 0 or less and rounding past four decimals", () => {
    const grouped = realPricesByCurrency([
      { date: "2024-01-03", price: "10", currency: "USD" },
      { date: "2024-01-01", price: "9", currency: "USD" },
      { date: "2024-01-03", price: "11", currency: "USD" },
      { date: "2024-01-02", price: "0", currency: "USD" },
      { date: "2024-01-02", price: "8.123456", currency: "EUR" },
    ]);
    expect(Object.fromEntries(grouped)).toEqual({
      USD: [
        { date: "2024-01-01", price: "9.0000" },
        { date: "2024-01-03", price: "11.0000" },
      ],
      EUR: [{ date: "2024-01-02", price: "8.1235" }],
    });
  });

  it("describe the daily series: real prices, then the last one carried (provisional) up to today", () => {
    const series = dailyPriceSeries(
      [
        { date: "2024-01-04", price: "12.0000" },
        { date: "2024-01-01", price: "10.0000" },
        { date: "2024-01-09", price: "99.0000" }, // after today: stored, carries nothing yet
      ],
      "2024-01-06",
    );
    expect(series).toEqual([
      { date: "2024-01-01", price: "10.0000", provisional: false },
      { date: "2024-01-02", price: "10.0000", provisional: true },
      { date: "2024-01-03", price: "10.0000", provisional: true },
      { date: "2024-01-04", price: "12.0000", provisional: false },
      { date: "2024-01-05", price: "12.0000", provisional: true },
      { date: "2024-01-06", price: "12.0000", provisional: true },
      { date: "2024-01-09", price: "99.0000", provisional: false },
    ]);
  });

  it("carry a price at most CARRY_FORWARD_MAX_DAYS days", () => {
    const series = dailyPriceSeries([{ date: "2000-01-01", price: "1.0000" }], "2024-01-01");
    expect(series).toHaveLength(CARRY_FORWARD_MAX_DAYS + 1);
    expect(series.at(-1)).toEqual({ date: addDays("2000-01-01", CARRY_FORWARD_MAX_DAYS), price: "1.0000", provisional: true });
    expect(dailyPriceSeries([{ date: "2024-01-01", price: "1.0000" }], "2024-01-10", 3).map((day) => day.date)).toEqual([
      "2024-01-01",
      "2024-01-02",
      "2024-01-03",
      "2024-01-04",
    ]);
  });

  it("format a price as money in its currency's minor unit, rounded half away from zero, and as exact four-decimal text", () => {
    const row = (price: string, currency: string) => ({
      id: "0192f0c4-0000-7000-8000-000000000001",
      familyId: "0192f0c4-0000-7000-8000-000000000002",
      securityId: "0192f0c4-0000-7000-8000-000000000003",
      date: dateOf("2024-01-15"),
      price: new Prisma.Decimal(price),
      currency,
      provisional: false,
      createdAt: new Date("2024-01-15T10:00:00Z"),
      updatedAt: new Date("2024-01-15T10:00:00Z"),
      security: { id: "0192f0c4-0000-7000-8000-000000000003", ticker: "AAPL", name: "Apple", exchangeOperatingMic: "XNAS" },
    });
    expect(toSecurityPriceResource(row("215", "USD"))).toEqual({
      id: "0192f0c4-0000-7000-8000-000000000001",
      date: "2024-01-15",
      price: "$215.00",
      price_amount: "215.0000",
      currency: "USD",
      provisional: false,
      security: { id: "0192f0c4-0000-7000-8000-000000000003", ticker: "AAPL", name: "Apple", exchange_operating_mic: "XNAS" },
      created_at: "2024-01-15T10:00:00.000Z",
      updated_at: "2024-01-15T10:00:00.000Z",
    });
    expect(toSecurityPriceResource(row("1.2350", "USD"))).toMatchObject({ price: "$1.24", price_amount: "1.2350" });
    expect(toSecurityPriceResource(row("1.2349", "USD"))).toMatchObject({ price: "$1.23", price_amount: "1.2349" });
    expect(toSecurityPriceResource(row("250.5", "EUR"))).toMatchObject({ price: "€250.50", price_amount: "250.5000" });
    expect(toSecurityPriceResource(row("1234.5", "JPY"))).toMatchObject({ price: "¥1,235", price_amount: "1234.5000" });
    expect(toSecurityPriceResource(row("1.2345", "KWD"))).toMatchObject({ price_amount: "1.2345" });
    expect(toSecurityPriceResource(row("1.2345", "KWD")).price).toContain("1.235");
  });
});

describe("security prices API", () => {
  let finance: RunningFinance;
  beforeAll(async () => {
    finance = await startFinance();
  });
  afterAll(async () => finance?.stop());

  const today = todayIso();
  const daysAgo = (days: number) => addDays(today, -days);

  const as = (actor: Actor) => {
    const call = financeAs(finance, actor);
    return {
      record: async (body: unknown) => RecordedSecurityPricesSchema.parse(await call("securityPrices.record", body)).security_prices,
      list: async (query: Record<string, unknown> = {}) => SecurityPriceCollectionSchema.parse(await call("securityPrices.list", query)),
      get: async (id: string) => SecurityPriceSchema.parse(await call("securityPrices.get", { id })),
      call,
    };
  };

  /** Every stored price of a security, as the daily series describes them. */
  async function storedSeries(securityId: string, currency = "USD") {
    const rows = await finance.db.securityPrice.findMany({ where: { securityId, currency }, orderBy: { date: "asc" } });
    return rows.map((row) => ({ date: isoDateOf(row.date), price: row.price.toFixed(4), provisional: row.provisional }));
  }

  async function investmentAccount(familyId: string) {
    return finance.db.account.create({ data: { familyId, name: "Brokerage", accountType: "investment", classification: "asset", currency: "USD" } });
  }

  /** A buy as the trades endpoint would store it: an entry of kind trade and its trades row. */
  async function trade(familyId: string, accountId: string, securityId: string, date: string) {
    const entry = await finance.db.entry.create({
      data: { familyId, accountId, kind: "trade", date: dateOf(date), name: "Buy 1 share", amountCents: 10_000n, currency: "USD" },
    });
    await finance.db.trade.create({ data: { entryId: entry.id, familyId, securityId, qty: "1", price: "100", currency: "USD" } });
  }

  it("records one price for a new ticker (an offline security in the family's currency) and answers it in Sure's shape", async () => {
    const alice = newActor();
    const [price] = await as(alice).record({ security_price: { ticker: "aapl", date: today, price: 215 } });
    expect(price).toMatchObject({ date: today, price: "$215.00", price_amount: "215.0000", currency: "USD", provisional: false });
    expect(price!.security).toMatchObject({ ticker: "AAPL", name: null, exchange_operating_mic: null });
    const security = await finance.db.security.findUniqueOrThrow({ where: { id: price!.security.id } });
    expect(security).toMatchObject({ familyId: alice.familyId, offline: true, kind: "standard" });
    expect(await as(alice).get(price!.id)).toEqual(price);
  });

  it("records many prices at once, in request order, for several securities", async () => {
    const alice = newActor();
    const recorded = await as(alice).record({
      security_prices: [
        { ticker: "MSFT", date: daysAgo(2), price: "400.10" },
        { ticker: "VTI", date: daysAgo(2), price: "250", currency: "EUR" },
        { ticker: "MSFT", date: daysAgo(1), price: "401.2345" },
      ],
    });
    expect(recorded.map((price) => [price.security.ticker, price.date, price.price_amount, price.currency])).toEqual([
      ["MSFT", daysAgo(2), "400.1000", "USD"],
      ["VTI", daysAgo(2), "250.0000", "EUR"],
      ["MSFT", daysAgo(1), "401.2345", "USD"],
    ]);
    expect(recorded.every((price) => !price.provisional)).toBe(true);
    // A price without a currency takes the currency the security was last priced in.
    const [next] = await as(alice).record({ security_price: { security_id: recorded[1]!.security.id, date: daysAgo(1), price: "251" } });
    expect(next).toMatchObject({ currency: "EUR", price: "€251.00" });
  });

  it("upserts one price per security, day and currency: the same day again updates the row", async () => {
    const alice = newActor();
    const [first] = await as(alice).record({ security_price: { ticker: "AAPL", date: daysAgo(3), price: "100" } });
    const [again] = await as(alice).record({ security_price: { ticker: "aapl", date: daysAgo(3), price: "101.5" } });
    expect(again).toMatchObject({ id: first!.id, price_amount: "101.5000", provisional: false });
    const [euro] = await as(alice).record({ security_price: { ticker: "AAPL", date: daysAgo(3), price: "90", currency: "eur" } });
    expect(euro!.id).not.toBe(first!.id);
    const sameDay = await as(alice).list({ start_date: daysAgo(3), end_date: daysAgo(3) });
    expect(sameDay.security_prices.map((price) => [price.currency, price.price_amount]).sort()).toEqual([
      ["EUR", "90.0000"],
      ["USD", "101.5000"],
    ]);
    // The same day twice in one request: the last one wins.
    const both = await as(alice).record({
      security_prices: [
        { ticker: "AAPL", date: daysAgo(3), price: "1", currency: "USD" },
        { ticker: "AAPL", date: daysAgo(3), price: "2", currency: "USD" },
      ],
    });
    expect(both).toHaveLength(1);
    expect(both[0]).toMatchObject({ id: first!.id, price_amount: "2.0000" });
  });

  it("carries the last price forward over days without one (provisional), and a real price replaces a carried one", async () => {
    const alice = newActor();
    const [start] = await as(alice).record({ security_price: { ticker: "AAPL", date: daysAgo(5), price: "100" } });
    const securityId = start!.security.id;
    const carried = await as(alice).list({ security_id: securityId, provisional: true });
    expect(carried.security_prices.map((price) => [price.date, price.price_amount])).toEqual([0, 1, 2, 3, 4].map((days) => [daysAgo(days), "100.0000"]));
    const replaced = carried.security_prices.find((price) => price.date === daysAgo(3))!;

    const [real] = await as(alice).record({ security_price: { security_id: securityId, date: daysAgo(3), price: "110" } });
    expect(real).toMatchObject({ id: replaced.id, provisional: false, price_amount: "110.0000" });
    expect(await storedSeries(securityId)).toEqual([
      { date: daysAgo(5), price: "100.0000", provisional: false },
      { date: daysAgo(4), price: "100.0000", provisional: true },
      { date: daysAgo(3), price: "110.0000", provisional: false },
      { date: daysAgo(2), price: "110.0000", provisional: true },
      { date: daysAgo(1), price: "110.0000", provisional: true },
      { date: today, price: "110.0000", provisional: true },
    ]);

    // An earlier real price changes only the carried days up to the next real one.
    await as(alice).record({ security_price: { security_id: securityId, date: daysAgo(7), price: "90" } });
    expect((await storedSeries(securityId)).slice(0, 3)).toEqual([
      { date: daysAgo(7), price: "90.0000", provisional: false },
      { date: daysAgo(6), price: "90.0000", provisional: true },
      { date: daysAgo(5), price: "100.0000", provisional: false },
    ]);
  });

  it("keeps the stored series equal to the daily series of its real prices, whatever order prices come in", async () => {
    const alice = newActor();
    const [first] = await as(alice).record({ security_price: { ticker: "SERIES", date: daysAgo(30), price: "50" } });
    const securityId = first!.security.id;
    const reals = new Map<string, string>([[daysAgo(30), "50.0000"]]);
    // A fixed shuffle of days and prices: backdated, future, repeated and same-value prices.
    const steps: [number, string][] = [
      [10, "55"],
      [25, "51"],
      [10, "56"],
      [-3, "70"],
      [29, "50"],
      [0, "60"],
      [35, "45"],
      [10, "56"],
      [20, "52.5"],
      [2, "59"],
    ];
    for (const [days, price] of steps) {
      await as(alice).record({ security_price: { security_id: securityId, date: daysAgo(days), price } });
      reals.set(daysAgo(days), (parsePriceText(price) as { price: string }).price);
      const expected = dailyPriceSeries(
        [...reals].map(([date, value]) => ({ date, price: value })),
        today,
      );
      expect(await storedSeries(securityId)).toEqual(expected);
    }
  });

  it("ends with the daily series of every real price when requests for the same securities run at once", async () => {
    const alice = newActor();
    const days = [12, 3, 9, 6, 1, 10, 4, 7];
    const requests = days.map((day, index) => ({
      security_prices: (index % 2 === 0 ? ["ONE", "TWO", "THREE"] : ["THREE", "TWO", "ONE"]).map((ticker) => ({
        ticker,
        date: daysAgo(day),
        price: `${100 + day}`,
      })),
    }));
    // A first request alone: the family's settings row is made on its first read, and two first reads at once collide (family-settings).
    await as(alice).record(requests[0]);
    await Promise.all(requests.slice(1).map((body) => as(alice).record(body)));
    const expected = dailyPriceSeries(
      days.map((day) => ({ date: daysAgo(day), price: `${100 + day}.0000` })),
      today,
    );
    for (const ticker of ["ONE", "TWO", "THREE"]) {
      const security = await finance.db.security.findUniqueOrThrow({ where: { familyId_ticker: { familyId: alice.familyId, ticker } } });
      expect(await storedSeries(security.id)).toEqual(expected);
    }
  });

  it("carries a price at most ten years (CARRY_FORWARD_MAX_DAYS days)", async () => {
    const alice = newActor();
    const start = daysAgo(CARRY_FORWARD_MAX_DAYS + 40);
    const [old] = await as(alice).record({ security_price: { ticker: "OLD", date: start, price: "3" } });
    const series = await storedSeries(old!.security.id);
    expect(series).toHaveLength(CARRY_FORWARD_MAX_DAYS + 1);
    expect(series.at(-1)).toEqual({ date: addDays(start, CARRY_FORWARD_MAX_DAYS), price: "3.0000", provisional: true });
  });

  it("filters by security, currency, dates and provisional, newest first, and reads per_page over 100 as 100", async () => {
    const alice = newActor();
    const [aapl, , eur] = await as(alice).record({
      security_prices: [
        { ticker: "AAPL", date: daysAgo(2), price: "215" },
        { ticker: "MSFT", date: daysAgo(2), price: "400" },
        { ticker: "AAPL", date: daysAgo(2), price: "250.5", currency: "EUR" },
      ],
    });
    const filtered = await as(alice).list({
      security_id: aapl!.security.id,
      currency: " usd ",
      start_date: daysAgo(2),
      end_date: daysAgo(2),
      provisional: "false",
    });
    expect(filtered.security_prices.map((price) => price.id)).toEqual([aapl!.id]);
    expect(filtered.pagination).toEqual({ page: 1, per_page: 25, total_count: 1, total_pages: 1 });

    const euros = await as(alice).list({ currency: "EUR" });
    expect(euros.security_prices.map((price) => [price.date, price.provisional])).toEqual([
      [today, true],
      [daysAgo(1), true],
      [daysAgo(2), false],
    ]);
    expect(euros.security_prices[2]!.id).toBe(eur!.id);

    const all = await as(alice).list({ per_page: 250 });
    expect(all.pagination).toMatchObject({ per_page: 100, total_count: 9 });
    const dates = all.security_prices.map((price) => price.date);
    expect(dates).toEqual([...dates].sort().reverse());
    expect((await as(alice).list({ start_date: daysAgo(1) })).pagination.total_count).toBe(6);
    expect((await as(alice).list({ end_date: daysAgo(2), per_page: 2, page: 2 })).security_prices).toHaveLength(1);
    await expectAppError(as(alice).call("securityPrices.list", { start_date: "01/15/2024" }), "validation_failed");
    await expectAppError(as(alice).call("securityPrices.list", { provisional: "maybe" }), "validation_failed");
  });

  it("keeps families apart: another family's security or price is 404 even with the same ticker, and never listed", async () => {
    const alice = newActor();
    const bob = newActor();
    const [alicePrice] = await as(alice).record({ security_price: { ticker: "AAPL", date: daysAgo(1), price: "215" } });
    const [bobPrice] = await as(bob).record({ security_price: { ticker: "AAPL", date: daysAgo(1), price: "999" } });
    expect(bobPrice!.security.id).not.toBe(alicePrice!.security.id);

    await expectAppError(as(alice).get(bobPrice!.id), "record_not_found");
    const error = await expectAppError(
      as(alice).record({ security_price: { security_id: bobPrice!.security.id, date: today, price: "1" } }),
      "record_not_found",
    );
    expect(error.message).toBe("Security not found");
    expect((await as(alice).list({ security_id: bobPrice!.security.id })).security_prices).toEqual([]);
    const listed = await as(alice).list({ per_page: 100 });
    expect(listed.security_prices.every((price) => price.security.id === alicePrice!.security.id)).toBe(true);
    expect(await finance.db.securityPrice.findUniqueOrThrow({ where: { id: bobPrice!.id } })).toMatchObject({ provisional: false });
    expect((await as(bob).get(bobPrice!.id)).price_amount).toBe("999.0000");
  });

  it("refuses bad prices with 422 (nothing written) and an unknown security id with 404", async () => {
    const alice = newActor();
    const [known] = await as(alice).record({ security_price: { ticker: "AAPL", date: daysAgo(1), price: "10" } });
    const before = await finance.db.securityPrice.count({ where: { familyId: alice.familyId } });
    const refuse = async (body: unknown) => (await expectAppError(as(alice).record(body), "validation_failed")).errors;

    expect(await refuse({ security_price: { ticker: "AAPL", date: today, price: "0" } })).toEqual(["Price must be greater than 0"]);
    expect(await refuse({ security_price: { ticker: "AAPL", date: today, price: -5 } })).toEqual(["Price must be greater than 0"]);
    expect(await refuse({ security_price: { ticker: "AAPL", date: today, price: "1.23456" } })).toEqual(["Price has at most 4 decimal places"]);
    // One bad item refuses the whole request, even after good ones (and a new ticker is not created).
    expect(
      await refuse({
        security_prices: [
          { ticker: "NEWONE", date: today, price: "5" },
          { ticker: "AAPL", date: today, price: "0" },
        ],
      }),
    ).toEqual(["Price must be greater than 0"]);
    await refuse({ security_price: { ticker: "AAPL", security_id: known!.security.id, date: today, price: "1" } });
    await refuse({ security_price: { ticker: "AAPL", date: "1969-12-31", price: "1" } });
    await refuse({ security_price: { ticker: "AAPL", date: today, price: "1", currency: "XYZ" } });
    await refuse({});
    const tooMany = Array.from({ length: 101 }, (_, index) => ({ ticker: `T${index}`, date: today, price: "1" }));
    expect(await refuse({ security_prices: tooMany })).toEqual(["At most 100 securities per request"]);

    const unknown = await expectAppError(
      as(alice).record({ security_price: { security_id: "0192f0c4-0000-7000-8000-00000000dead", date: today, price: "1" } }),
      "record_not_found",
    );
    expect(unknown.message).toBe("Security not found");
    await expectAppError(as(alice).get("0192f0c4-0000-7000-8000-00000000dead"), "record_not_found");

    expect(await finance.db.securityPrice.count({ where: { familyId: alice.familyId } })).toBe(before);
    expect(await finance.db.security.count({ where: { familyId: alice.familyId } })).toBe(1);
  });

  it("refuses a request that would carry prices over more than 100,000 days in all (was 365,000 rows and a timed-out request)", async () => {
    const alice = newActor();
    const old = Array.from({ length: 30 }, (_, index) => ({ ticker: `OLD${index}`, date: daysAgo(3700), price: "10" }));
    const error = await expectAppError(as(alice).call("securityPrices.record", { security_prices: old }), "validation_failed");
    expect(error.message).toContain("at most 100,000 days");
    expect(await finance.db.securityPrice.count({ where: { familyId: alice.familyId } })).toBe(0);
    expect(await as(alice).record({ security_prices: old.slice(0, 20) })).toHaveLength(20);
  });

  it("takes 100 securities in one request", async () => {
    const alice = newActor();
    const hundred = Array.from({ length: 100 }, (_, index) => ({ ticker: `S${index}`, date: today, price: `${index + 1}` }));
    expect(await as(alice).record({ security_prices: hundred })).toHaveLength(100);
  });

  it("queues a sync, from the earliest changed day, of every account of the family trading the security", async () => {
    const alice = newActor();
    const [price] = await as(alice).record({ security_price: { ticker: "AAPL", date: daysAgo(20), price: "100" } });
    const securityId = price!.security.id;
    const holder = await investmentAccount(alice.familyId);
    const bystander = await investmentAccount(alice.familyId);
    await trade(alice.familyId, holder.id, securityId, daysAgo(30));

    await as(alice).record({
      security_prices: [
        { security_id: securityId, date: daysAgo(5), price: "120" },
        { security_id: securityId, date: daysAgo(10), price: "110" },
      ],
    });
    const syncs = await finance.db.sync.findMany({ where: { syncableId: holder.id } });
    expect(syncs).toHaveLength(1);
    expect(isoDateOf(syncs[0]!.windowStartDate!)).toBe(daysAgo(10));
    expect(await finance.db.sync.count({ where: { syncableId: bystander.id } })).toBe(0);

    // The same price again changes nothing: no sync.
    await as(alice).record({ security_price: { security_id: securityId, date: daysAgo(5), price: "120" } });
    expect(await finance.db.sync.count({ where: { syncableId: holder.id } })).toBe(1);
  });

  it("answers every price in the contract's shape", async () => {
    const alice = newActor();
    await as(alice).record({ security_price: { ticker: "SHAPE", date: daysAgo(2), price: "12.5" } });
    const listed = await as(alice).list();
    listed.security_prices.forEach((price: SecurityPrice) => expect(SecurityPriceSchema.parse(price)).toEqual(price));
    expect(listed.security_prices.map((price) => price.price)).toEqual(["$12.50", "$12.50", "$12.50"]);
  });
});
