import { describe, expect, it } from "vitest";
import { AmountInputSchema, CurrencyCodeSchema, centsOf, decimalOf, formatMoney, minorUnitDigits, moneyOf, moneyPair, trimTrailing } from "../src";

describe("money", () => {
  it("knows each currency's minor unit", () => {
    expect(minorUnitDigits("USD")).toBe(2);
    expect(minorUnitDigits("JPY")).toBe(0);
    expect(minorUnitDigits("KWD")).toBe(3);
  });

  it("turns minor units into exact decimal text", () => {
    expect(decimalOf(123456, 2)).toBe("1234.56");
    expect(decimalOf(-5, 2)).toBe("-0.05");
    expect(decimalOf(0, 2)).toBe("0.00");
    expect(decimalOf(1234, 0)).toBe("1234");
    expect(decimalOf(9007199254740991, 2)).toBe("90071992547409.91");
  });

  it("formats without float rounding, in the currency's own digits", () => {
    expect(formatMoney(123456, "USD")).toBe("$1,234.56");
    expect(formatMoney(-5, "USD")).toBe("-$0.05");
    expect(formatMoney(1234, "JPY")).toBe("¥1,234");
    expect(formatMoney(1234567, "KWD")).toMatch(/1,234\.567/);
    // 2^53 - 1 cents: a float division by 100 would round this.
    expect(formatMoney(9007199254740991, "USD")).toBe("$90,071,992,547,409.91");
    // German puts the symbol after a no-break space.
    expect(formatMoney(123456, "EUR", "de-DE")).toBe("1.234,56\u00a0€");
  });

  it("builds and validates the wire pair", () => {
    expect(moneyOf("balance", 123456, "USD")).toEqual({ balance: "$1,234.56", balance_cents: 123456 });
    const schema = moneyPair("amount");
    expect(schema.parse({ amount: "$1.00", amount_cents: 100 })).toEqual({ amount: "$1.00", amount_cents: 100 });
    expect(schema.safeParse({ amount: "$1.00", amount_cents: 1.5 }).success).toBe(false);
    expect(schema.safeParse({ amount: "$1.00" }).success).toBe(false);
  });

  it("accepts only known ISO 4217 codes", () => {
    expect(CurrencyCodeSchema.safeParse("USD").success).toBe(true);
    expect(CurrencyCodeSchema.safeParse("usd").success).toBe(false);
    expect(CurrencyCodeSchema.safeParse("ZZZ").success).toBe(false);
  });
});

describe("amount input (no unbounded text reaches the digit parsing)", () => {
  it("refuses an amount text longer than 40 characters or with more digits than an amount can have", () => {
    expect(AmountInputSchema.safeParse(`1.${"0".repeat(500_000)}1`).success).toBe(false);
    expect(AmountInputSchema.safeParse("1".repeat(41)).success).toBe(false);
    expect(AmountInputSchema.safeParse("12345678901234").success).toBe(false);
    expect(AmountInputSchema.safeParse(`1.${"0".repeat(21)}`).success).toBe(false);
    expect(AmountInputSchema.safeParse(1e300).success).toBe(false);
    // Malformed text keeps its old message; only the new bounds have their own.
    expect(AmountInputSchema.safeParse("abc").error?.issues[0]?.message).toBe("Amount must be a number like 12.34");
    expect(AmountInputSchema.safeParse("12345678901234").error?.issues.map((i) => i.message)).toEqual([
      "Amount has at most 13 digits before the point and 20 after",
    ]);
  });

  it("still reads ordinary amounts, numbers and trailing zeros exactly", () => {
    expect(AmountInputSchema.parse(" 12.50 ")).toBe("12.50");
    expect(AmountInputSchema.parse(1e-7)).toBe("0.0000001");
    expect(AmountInputSchema.parse(0.1 + 0.2)).toBe("0.30000000000000004");
    expect(centsOf("12.3000", "USD")).toBe(1230n);
    expect(centsOf("-0.10", "USD")).toBe(-10n);
    expect(() => centsOf("0.001", "USD")).toThrow("at most 2 decimal places");
  });

  it("trims trailing characters in one pass", () => {
    expect(trimTrailing("https://issuer.example///", "/")).toBe("https://issuer.example");
    expect(trimTrailing("////", "/")).toBe("");
    expect(trimTrailing("1.2300", "0")).toBe("1.23");
    expect(trimTrailing("/".repeat(1_000_000) + "x", "/")).toHaveLength(1_000_001);
  });
});
