import { describe, expect, it } from "vitest";
import { routes, type RouteDef } from "@hearth/contracts";
import { foldQuery, unknownParameters } from "../src/http/query-params";

describe("foldQuery", () => {
  it("reads Rails' name[] as the plain name's list, merging both spellings", () => {
    expect(foldQuery({ "tag_ids[]": ["a", "b"], account_id: "x" }).values).toEqual({ tag_ids: ["a", "b"], account_id: "x" });
    expect(foldQuery({ "tag_ids[]": "a" }).values).toEqual({ tag_ids: ["a"] });
    expect(foldQuery({ tag_ids: "a", "tag_ids[]": ["b", "c"] }).values).toEqual({ tag_ids: ["a", "b", "c"] });
    expect(foldQuery({ tag_ids: ["a", "b"] }).values).toEqual({ tag_ids: ["a", "b"] });
  });

  it("keeps how the client spelled a name, and a __proto__ key as a plain key", () => {
    const folded = foldQuery({ "account_id[]": "a", ["__proto__"]: "x" });
    expect(folded.spelled.get("account_id")).toBe("account_id[]");
    expect(Object.getPrototypeOf(folded.values)).toBe(Object.prototype);
    expect(Object.keys(folded.values)).toContain("__proto__");
  });
});

describe("unknownParameters", () => {
  const unknown = (route: RouteDef, query: Record<string, unknown>) => unknownParameters(route, foldQuery(query));

  it("names a filter a list does not have, in the client's spelling", () => {
    expect(unknown(routes["transactions.list"], { tag_id: "x", "categoryids[]": "y", tag_ids: "z" })).toEqual(["tag_id", "categoryids[]"]);
  });

  it("lets page and per_page pass everywhere, even where a list has no pages", () => {
    expect(unknown(routes["tags.list"], { page: "1", per_page: "50" })).toEqual([]);
    expect(unknown(routes["tags.list"], { name: "x" })).toEqual(["name"]);
  });

  it("leaves public GETs (a provider's callback adds its own parameters) and writes alone", () => {
    expect(unknown(routes["sso.callback"], { code: "c", state: "s", session_state: "x" })).toEqual([]);
    expect(unknown(routes["tags.create"], { anything: "1" })).toEqual([]);
  });
});
