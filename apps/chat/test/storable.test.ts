import { describe, expect, it } from "vitest";
import fc from "fast-check";
import { unstorableTextOf } from "@hearth/contracts";
import { storableJson, storableText } from "../src/replies/storable";

describe("a model's text made storable", () => {
  it("replaces NUL and unpaired surrogates, keeps pairs (emoji) and everything else", () => {
    expect(storableText("a\u0000b")).toBe("a\uFFFDb");
    expect(storableText("x\uD800y\uDC00z")).toBe("x\uFFFDy\uFFFDz");
    expect(storableText("tail\uD83D")).toBe("tail\uFFFD");
    expect(storableText("😀 ok")).toBe("😀 ok");
  });

  it("leaves no string PostgreSQL refuses, whatever the input (property)", () => {
    fc.assert(
      fc.property(fc.string({ unit: "binary" }), (text) => {
        const mended = storableText(text);
        expect(unstorableTextOf(mended)).toBeNull();
        expect(mended.length).toBe(text.length);
        if (unstorableTextOf(text) === null) expect(mended).toBe(text);
      }),
    );
  });

  it("mends strings and keys anywhere in a JSON value", () => {
    const mended = storableJson({ "k\u0000": ["v\uD800", { deep: "\u0000" }], n: 1 });
    expect(mended).toEqual({ "k\uFFFD": ["v\uFFFD", { deep: "\uFFFD" }], n: 1 });
    expect(unstorableTextOf(mended)).toBeNull();
  });

  it("mends 200,000 lone surrogates in one pass (a backtracking pattern would not finish)", () => {
    expect(storableText("\uD800".repeat(200_000))).toBe("\uFFFD".repeat(200_000));
  });
});
