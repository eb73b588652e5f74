import { describe, expect, it } from "vitest";
import { applyMutations, type Mutation } from "../src/fuzz/mutations";

describe("applyMutations", () => {
  // fast-check's constantFrom hands the same [] to every run: a CI run once nested it in itself.
  it("inserts copies, so a shared constant is never changed in place or made cyclic", () => {
    const shared: unknown[] = [];
    const mutations: Mutation[] = [
      { at: 0, kind: "add", key: "k", value: shared },
      { at: 1, kind: "add", key: "ignored", value: shared },
    ];
    const mutated = applyMutations({}, mutations);
    expect(JSON.stringify(mutated)).toBe('{"k":[[]]}');
    expect(shared).toEqual([]);
  });
});
