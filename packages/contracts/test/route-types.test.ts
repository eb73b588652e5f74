import { describe, expectTypeOf, it } from "vitest";
import type { BodyOf, InputOf, QueryOf } from "../src";

describe("route types", () => {
  it("infers bodies, queries and merged inputs from the route table", () => {
    expectTypeOf<BodyOf<"tags.create">["tag"]["name"]>().toEqualTypeOf<string>();
    expectTypeOf<InputOf<"tags.update">["id"]>().toEqualTypeOf<string>();
    expectTypeOf<QueryOf<"categories.list">>().toHaveProperty("page");
    // A route without params, query or body takes nothing (not an open record).
    expectTypeOf<InputOf<"tags.list">>().toEqualTypeOf<Record<never, never>>();
  });
});
