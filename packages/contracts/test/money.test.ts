import { describe, expect, it } from "vitest";
import { CurrencyCodeSchema, decimalOf, formatMoney, minorUnitDigits, moneyOf, moneyPair } from "../src";

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
