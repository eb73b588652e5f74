import { describe, expect, it } from "vitest";
import { z } from "zod";
import { messagesOf } from "../../src/zod-messages";

const Body = z.object({
  tag: z.object({
    name: z.string().min(1, { message: "Name can't be blank" }),
    color: z
      .string()
      .regex(/^#[0-9a-f]{6}$/i)
      .optional(),
    first_name: z.string().max(3, { message: "First name is too long" }).optional(),
  }),
});

const messages = (input: unknown) => {
  const result = Body.safeParse(input);
  if (result.success) throw new Error("expected a failure");
  return messagesOf(result.error);
};

describe("messagesOf", () => {
  it("keeps our own messages, which already name the field", () => {
    expect(messages({ tag: { name: "" } })).toEqual(["Name can't be blank"]);
    expect(messages({ tag: { name: "x", first_name: "long" } })).toEqual(["First name is too long"]);
  });

  it("says which field is missing", () => {
    expect(messages({})).toEqual(["tag is required"]);
    expect(messages({ tag: {} })).toEqual(["tag.name is required"]);
  });

  it("prefixes zod's generic messages with the field path", () => {
    expect(messages({ tag: { name: "x", color: "red" } })).toEqual([expect.stringMatching(/^tag\.color: /)]);
  });
});
