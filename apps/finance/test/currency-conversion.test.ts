// Conversion of entries into an account's currency: exact decimal arithmetic, rates looked up on
// or before the entry's day, and running totals that do not drift with the number of entries.
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { convertCents, createCarryingConversion } from "../src/exchange-rates/convert";
import { createRateBook, MissingExchangeRate } from "../src/exchange-rates/rate-book";

describe("convertCents", () => {
  it("rounds half away from zero once, and moves between minor-unit sizes", () => {
    expect(convertCents(1n, "1.5", "EUR", "USD")).toBe(2n); // 0.015 -> 0.02
    expect(convertCents(-1n, "1.5", "EUR", "USD")).toBe(-2n);
    expect(convertCents(10_000n, "151.25", "USD", "JPY")).toBe(15_125n); // 100.00 USD -> 15,125 JPY
    expect(convertCents(1_000n, "0.30", "USD", "KWD")).toBe(3_000n); // 10.00 USD -> 3.000 KWD
  });
});

describe("createCarryingConversion", () => {
  it("three 0.01 EUR inflows at 1.5 make 0.05 USD, not 0.06 (each running total is the exact one rounded once)", () => {
    const convert = createCarryingConversion("EUR", "USD");
    const parts = [convert(-1n, "1.5"), convert(-1n, "1.5"), convert(-1n, "1.5")];
    expect(parts.reduce((a, b) => a + b)).toBe(-5n);
    expect(parts).toEqual([-2n, -1n, -2n]); // running totals -0.015 -> -0.02, -0.03, -0.045 -> -0.05
  });

  it("every running total equals the exact converted sum rounded once, whatever the amounts and rates", () => {
    const rate = fc.tuple(fc.integer({ min: 1, max: 9_999_999 }), fc.integer({ min: 0, max: 12 })).map(([digits, decimals]) => {
      const text = String(digits).padStart(decimals + 1, "0");
      return decimals === 0 ? text : `${text.slice(0, -decimals)}.${text.slice(-decimals)}`;
    });
    const flows = fc.array(fc.tuple(fc.bigInt({ min: -10_000_000n, max: 10_000_000n }), rate), { minLength: 1, maxLength: 40 });
    const pair = fc.constantFrom(["EUR", "USD"], ["USD", "JPY"], ["JPY", "KWD"], ["KWD", "USD"]);
    fc.assert(
      fc.property(flows, pair, (items, [from, to]) => {
        const convert = createCarryingConversion(from!, to!);
        let emitted = 0n;
        // The exact sum as a fraction over 10^30 (enough for 12 rate decimals and 3 digits of minor-unit shift).
        let exact = 0n;
        for (const [cents, r] of items) {
          emitted += convert(cents, r);
          const [whole, fraction = ""] = r.split(".");
          const shift = { EUR: 2, USD: 2, JPY: 0, KWD: 3 }[to!]! - { EUR: 2, USD: 2, JPY: 0, KWD: 3 }[from!]!;
          exact += cents * BigInt(`${whole}${fraction}`) * 10n ** BigInt(30 + shift - fraction.length);
          const scale = 10n ** 30n;
          const expected = exact >= 0n ? (exact * 2n + scale) / (2n * scale) : -((-exact * 2n + scale) / (2n * scale));
          expect(emitted).toBe(expected);
        }
      }),
      { numRuns: 500 },
    );
  });
});

describe("createRateBook", () => {
  const book = createRateBook(
    [
      { date: "2024-01-01", from: "EUR", rate: "1.1" },
      { date: "2024-01-10", from: "USD", rate: "0.8" }, // stored the other way round: 1 EUR = 1.25 USD
    ],
    "EUR",
    "USD",
  );

  it("takes the latest rate on or before the day, of any age (rates are entered by the family)", () => {
    expect(book.rateOn("2024-01-01")).toBe("1.1");
    expect(book.rateOn("2024-01-09")).toBe("1.1");
    expect(book.rateOn("2024-03-01")).toBe("1.250000000000");
  });

  it("never assumes 1 before the first rate", () => {
    expect(() => book.rateOn("2023-12-31")).toThrow(MissingExchangeRate);
  });

  it("leaves out a stored rate of 0 either way round, as if absent (never a division by zero)", () => {
    const zeros = createRateBook(
      [
        { date: "2024-01-01", from: "EUR", rate: "1.1" },
        { date: "2024-01-05", from: "USD", rate: "0" },
        { date: "2024-01-06", from: "EUR", rate: "0.000000000000" },
      ],
      "EUR",
      "USD",
    );
    expect(zeros.rateOn("2024-01-07")).toBe("1.1");
    expect(() => createRateBook([{ date: "2024-01-05", from: "USD", rate: "0" }], "EUR", "USD").rateOn("2024-01-07")).toThrow(MissingExchangeRate);
  });
});
