import { describe, expect, it } from "vitest";
import { CreateRuleBodySchema } from "../src";

describe("a rule's conditions", () => {
  // Found by an import's review: `type in RULE_CONDITION_TYPES` took prototype names for condition types, and the check then threw (a 500).
  it.each(["constructor", "toString", "__proto__", "hasOwnProperty"])("refuse the condition type %s as unsupported, not with a crash", (type) => {
    const parsed = CreateRuleBodySchema.safeParse({
      rule: { conditions: [{ condition_type: type, operator: "=", value: "x" }], actions: [{ action_type: "exclude_transaction" }] },
    });
    expect(parsed.success).toBe(false);
    expect(parsed.error?.issues.map((issue) => issue.message)).toContain(`Unsupported condition type: ${type}`);
  });
});
