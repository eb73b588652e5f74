import { describe, expect, it } from "vitest";
import { conditionSql, likePattern, matchSql, normalizedValue } from "../src/rules/condition-sql";
import { RuleDefinitionError, type StoredCondition } from "../src/rules/rule-definition";

const leaf = (conditionType: string, operator: string, value: string | null = null): StoredCondition => ({ conditionType, operator, value, subConditions: [] });
const compound = (operator: string, ...subConditions: StoredCondition[]): StoredCondition => ({
  conditionType: "compound",
  operator,
  value: null,
  subConditions,
});

describe("conditions as SQL", () => {
  it("binds every value as a parameter: hostile text never reaches the SQL text", () => {
    const hostile = "'; DROP TABLE entries; --";
    for (const condition of [leaf("transaction_name", "like", hostile), leaf("transaction_name", "=", hostile), leaf("transaction_notes", "like", hostile)]) {
      const sql = conditionSql(condition);
      expect(sql.sql).not.toContain("DROP");
      expect(sql.values.some((value) => typeof value === "string" && value.includes("DROP TABLE"))).toBe(true);
    }
    const match = matchSql({ familyId: "00000000-0000-4000-8000-000000000001", effectiveDate: new Date("2026-01-01T00:00:00Z"), conditions: [] });
    expect(match.sql).not.toContain("00000000-0000-4000-8000-000000000001");
    expect(match.values).toContain("2026-01-01");
  });

  it("escapes the value's own LIKE wildcards and normalises whitespace as Sure does", () => {
    expect(likePattern("100%")).toBe("%100\\%%");
    expect(likePattern(" a_b  \t c ")).toBe("%a\\_b c%");
    expect(likePattern("back\\slash")).toBe("%back\\\\slash%");
    expect(normalizedValue("  Company -\n  Mobile ")).toBe("Company - Mobile");
  });

  it("joins a compound's sub-conditions with its operator, and an empty one matches everything", () => {
    const either = conditionSql(compound("or", leaf("transaction_notes", "is_null"), leaf("transaction_tag", "is_null")));
    expect(either.sql).toMatch(/\(\(e\.notes IS NULL\) OR \(NOT EXISTS/);
    expect(conditionSql(compound("and", leaf("transaction_category", "is_null"), leaf("transaction_merchant", "is_null"))).sql).toBe(
      "((e.category_id IS NULL) AND (e.merchant_id IS NULL))",
    );
    expect(conditionSql(compound("and")).sql).toBe("TRUE");
  });

  it("refuses, naming it, what a stored rule may hold but cannot run", () => {
    const refused = (condition: StoredCondition, message: string) => {
      expect(() => conditionSql(condition)).toThrow(RuleDefinitionError);
      expect(() => conditionSql(condition)).toThrow(message);
    };
    refused(leaf("transaction_colour", "=", "red"), "Unsupported condition type: transaction_colour");
    refused(leaf("transaction_name", "sounds_like", "x"), "Unsupported operator: sounds_like for transaction_name");
    refused(leaf("transaction_amount", ">", "1e9"), "transaction_amount value is not a number: 1e9");
    refused(leaf("transaction_category", "=", "not-an-id"), "transaction_category value is not an id: not-an-id");
    refused(leaf("transaction_type", "=", "refund"), "transaction_type value must be one of: income, expense, transfer");
    refused(leaf("transaction_name", "like", "  "), "transaction_name needs a value");
    refused(compound("xor"), "Unsupported operator: xor for compound");
    refused(compound("and", compound("or")), "Compound conditions cannot be nested");
  });
});
