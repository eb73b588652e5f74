import { describe, expect, it } from "vitest";
import { z } from "zod";
import {
  BooleanParamSchema,
  DateInputSchema,
  DateSchema,
  LedgerDateSchema,
  MAX_PAGE,
  PageQuerySchema,
  RecordRefSchema,
  unstorableTextOf,
  withStorableText,
} from "../src";

const page = (query: Record<string, unknown>) => PageQuerySchema.safeParse(query);

describe("page and per_page", () => {
  it("read valid values, defaults and Sure's clamping as before", () => {
    expect(page({}).data).toEqual({ page: 1, per_page: 25 });
    expect(page({ page: "2", per_page: "3" }).data).toEqual({ page: 2, per_page: 3 });
    expect(page({ page: " 7 ", per_page: "" }).data).toEqual({ page: 7, per_page: 25 });
    expect(page({ page: String(MAX_PAGE), per_page: "1000" }).data).toEqual({ page: MAX_PAGE, per_page: 100 });
    expect(page({ page: "0", per_page: "0" }).data).toEqual({ page: 1, per_page: 25 });
    // A word is not a number at all: Sure reads it as the default.
    expect(page({ page: "abc", per_page: "nope" }).data).toEqual({ page: 1, per_page: 25 });
  });

  it("are idempotent: a service re-reads the gateway's numbers", () => {
    const once = PageQuerySchema.parse({ page: "4", per_page: "1000" });
    expect(PageQuerySchema.parse(once)).toEqual(once);
  });

  it.each(["1e300", "-1", "1.5", "NaN", "Infinity", "-Infinity", "99999999999999999999", String(MAX_PAGE + 1), "0x10", "+3", "12abc", ".5"])(
    "refuse %s naming the parameter",
    (value) => {
      for (const name of ["page", "per_page"]) {
        const result = page({ [name]: value });
        expect(result.success, `${name}=${value}`).toBe(false);
        expect(result.error?.issues[0]?.path).toEqual([name]);
        expect(result.error?.issues[0]?.message).toBe(`must be a whole number from 1 to ${MAX_PAGE}`);
      }
    },
  );

  it("refuse a parameter given twice or as a non-number", () => {
    expect(page({ page: ["1", "2"] }).success).toBe(false);
    expect(page({ per_page: 1e300 }).success).toBe(false);
    expect(page({ page: true }).success).toBe(false);
  });
});

describe("dates a client sends", () => {
  it.each(["1900-01-01", "2024-02-29", "2999-12-31"])("accept %s", (date) => {
    expect(DateInputSchema.safeParse(date).success).toBe(true);
  });

  it.each(["0000-01-01", "2024-02-30", "2023-02-29", "99999-01-01", "1899-12-31", "3000-01-01", "2024-1-01", "2024-01-01T00:00:00Z", ""])(
    "refuse %s",
    (date) => {
      const result = DateInputSchema.safeParse(date);
      expect(result.success).toBe(false);
      expect(result.error?.issues[0]?.message).toBe("must be a real calendar date (YYYY-MM-DD) from 1900-01-01 to 2999-12-31");
    },
  );

  it("keep the ledger's narrower range for entries, and any real date in responses", () => {
    expect(LedgerDateSchema.safeParse("1969-12-31").success).toBe(false);
    expect(LedgerDateSchema.safeParse("2024-02-30").success).toBe(false);
    expect(DateSchema.safeParse("1800-01-01").success).toBe(true);
  });
});

describe("text PostgreSQL cannot store", () => {
  it("is found wherever it is in a JSON value, keys included", () => {
    expect(unstorableTextOf({ a: [{ b: "ok" }, { c: "x\u0000y" }] })).toEqual({ path: ["a", 1, "c"], message: "must not contain NUL (\\u0000) characters" });
    expect(unstorableTextOf({ a: ["ok", "\ud800"] })).toEqual({ path: ["a", 1], message: "must not contain unpaired UTF-16 surrogates" });
    expect(unstorableTextOf({ a: { "b\udc00": 1 } })?.path).toEqual(["a", "b\ufffd"]);
    expect(unstorableTextOf({ a: ["ok", 1, null, true, "🐶 \ud83d\udc36"] })).toBeNull();
  });

  it("is found in a value nested far deeper than the call stack goes", () => {
    let deep: unknown = "\ud800";
    for (let i = 0; i < 200_000; i++) deep = [deep];
    expect(unstorableTextOf(deep)?.message).toBe("must not contain unpaired UTF-16 surrogates");
  });

  it("fails the wrapped schema with the field's path", () => {
    const schema = withStorableText(z.object({ name: z.string() }));
    for (const name of ["a\u0000", "a\ud800b", "\udfff"]) {
      const result = schema.safeParse({ name });
      expect(result.success).toBe(false);
      expect(result.error?.issues[0]?.path).toEqual(["name"]);
    }
    expect(schema.parse({ name: "fine 🐶" })).toEqual({ name: "fine 🐶" });
  });
});

describe("booleans as Rails params take them", () => {
  it.each([true, "true", "1", 1, "t", "on", " TRUE ", "True"])("read %j as true", (value) => {
    expect(BooleanParamSchema.parse(value)).toBe(true);
  });

  it.each([false, "false", "0", 0, "f", "off", "FALSE"])("read %j as false", (value) => {
    expect(BooleanParamSchema.parse(value)).toBe(false);
  });

  // Rails reads any other word as true; a typo must not turn a filter or an upsert on.
  it.each(["yes", "no", "", "2", 2, null, ["true"], {}])("refuse %j", (value) => {
    const result = BooleanParamSchema.safeParse(value);
    expect(result.success).toBe(false);
    expect(result.error?.issues[0]?.message).toBe("must be true or false (also accepted: 1 or 0)");
  });

  it("re-reads its own output, as a service re-validates the gateway's input", () => {
    expect(BooleanParamSchema.parse(BooleanParamSchema.parse("1"))).toBe(true);
    expect(BooleanParamSchema.optional().parse(undefined)).toBeUndefined();
  });
});

describe("ids of records a write acts on", () => {
  it("read text or a number that is no UUID as the id of no record (Rails' find: 404, not 422)", () => {
    expect(RecordRefSchema.parse("01900000-0000-7000-8000-000000000000")).toBe("01900000-0000-7000-8000-000000000000");
    expect(RecordRefSchema.parse(999999)).toBe("00000000-0000-0000-0000-000000000000");
    expect(RecordRefSchema.parse("not-a-uuid")).toBe("00000000-0000-0000-0000-000000000000");
  });

  it("keep blank or missing ids and other types a validation failure", () => {
    for (const value of ["", "  ", undefined, null, {}, ["x"], true]) expect(RecordRefSchema.safeParse(value).success, JSON.stringify(value)).toBe(false);
  });
});
