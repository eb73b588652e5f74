import { describe, expect, it } from "vitest";
import { UpsertExchangeRateBodySchema } from "../src";

const body = (rate: unknown) => ({ from: "EUR", to: "USD", date: "2026-01-01", rate });
const messagesFor = (rate: unknown) => {
  const parsed = UpsertExchangeRateBodySchema.safeParse(body(rate));
  return parsed.success ? [] : parsed.error.issues.map((issue) => issue.message);
};

describe("an exchange rate's body", () => {
  it("takes a rate that the Decimal(24, 12) column stores exactly, as text or a number", () => {
    for (const rate of ["1.5", 1.5, "0.000000000001", "123456789012", "123456789012.123456789012", "1.50000000000000", "0001.25"]) {
      expect(UpsertExchangeRateBodySchema.safeParse(body(rate)).success, JSON.stringify(rate)).toBe(true);
    }
    expect(UpsertExchangeRateBodySchema.parse(body(1e-12)).rate).toBe("0.000000000001");
  });

  it("refuses a rate that rounds to 0 at 12 decimals (it would be stored as 0, and nothing converts at 0)", () => {
    for (const rate of ["0.0000000000001", 1e-13, "0.0000000000004", "0.00000000000049"]) {
      expect(messagesFor(rate), JSON.stringify(rate)).toEqual(["Rate has at most 12 digits before the point and 12 after"]);
    }
  });

  it("refuses more decimals than the column keeps, rather than rounding them away", () => {
    expect(messagesFor("1.0000000000001")).toEqual(["Rate has at most 12 digits before the point and 12 after"]);
  });

  it("refuses 13 or more digits before the point (the column would overflow)", () => {
    expect(messagesFor("1234567890123")).toEqual(["Rate has at most 12 digits before the point and 12 after"]);
    expect(messagesFor(1e12)).toEqual(["Rate has at most 12 digits before the point and 12 after"]);
    expect(messagesFor("9999999999999.5")).toEqual(["Rate has at most 12 digits before the point and 12 after"]);
  });

  it("refuses 0 and negative rates", () => {
    expect(messagesFor("0")).toEqual(["rate must be greater than 0"]);
    expect(messagesFor("0.000000000000")).toEqual(["rate must be greater than 0"]);
    expect(messagesFor(-1)).toEqual(["rate must be greater than 0"]);
  });
});
