import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { TagSchema, type Actor, type Tag } from "@hearth/contracts";
import { contextOf, expectAppError, newActor, startFinance, type RunningFinance } from "./support";

let finance: RunningFinance;
const alice = newActor();
const aliceSpouse = newActor({ familyId: alice.familyId }); // same family, another user
const bob = newActor(); // another family

beforeAll(async () => {
  finance = await startFinance();
});
afterAll(async () => finance?.stop());

const as = (actor: Actor) => ({
  list: () => finance.call("tags.list", "query", {}, contextOf(actor)) as Promise<Tag[]>,
  get: (id: string) => finance.call("tags.get", "query", { id }, contextOf(actor)) as Promise<Tag>,
  create: (tag: unknown) => finance.call("tags.create", "mutation", { tag }, contextOf(actor)) as Promise<Tag>,
  update: (id: string, tag: unknown) => finance.call("tags.update", "mutation", { id, tag }, contextOf(actor)) as Promise<Tag>,
  delete: (id: string) => finance.call("tags.delete", "mutation", { id }, contextOf(actor)),
});

describe("finance tags", () => {
  it("stores a tag under the family of the signed context and shares it with that family only", async () => {
    const created = TagSchema.parse(await as(alice).create({ name: "Groceries", color: "#4da568" }));
    const row = await finance.db.tag.findUniqueOrThrow({ where: { id: created.id } });
    expect(row.familyId).toBe(alice.familyId);
    expect(await as(aliceSpouse).get(created.id)).toEqual(created);
    expect((await as(bob).list()).map((tag) => tag.id)).not.toContain(created.id);
  });

  it("answers record_not_found to another family for get, update and delete, and leaves the tag as it was", async () => {
    const tag = await as(alice).create({ name: "Private", color: "#123abc" });
    await expectAppError(as(bob).get(tag.id), "record_not_found");
    await expectAppError(as(bob).update(tag.id, { name: "Taken over" }), "record_not_found");
    await expectAppError(as(bob).delete(tag.id), "record_not_found");
    expect(await as(alice).get(tag.id)).toEqual(tag);
  });

  it("refuses a name already used in the family, on create and on rename, but not in another family", async () => {
    await as(alice).create({ name: "Travel" });
    const error = await expectAppError(as(alice).create({ name: "Travel" }), "validation_failed");
    expect(error.errors).toEqual(["Name has already been taken"]);

    const other = await as(alice).create({ name: "Holidays" });
    const rename = await expectAppError(as(alice).update(other.id, { name: "Travel" }), "validation_failed");
    expect(rename.errors).toEqual(["Name has already been taken"]);
    expect((await as(alice).get(other.id)).name).toBe("Holidays");

    await expect(as(bob).create({ name: "Travel" })).resolves.toMatchObject({ name: "Travel" });
  });

  it("lists the family's tags sorted by name and assigns a palette colour when none is given", async () => {
    const family = newActor();
    for (const name of ["Bread", "Cheese", "Apples"]) await as(family).create({ name });
    const listed = await as(family).list();
    expect(listed.map((tag) => tag.name)).toEqual(["Apples", "Bread", "Cheese"]);
    expect(listed.every((tag) => /^#[0-9a-f]{6}$/i.test(tag.color))).toBe(true);
  });

  it("updates only the fields given, and deletes (a second delete is record_not_found)", async () => {
    const tag = await as(alice).create({ name: "Bills", color: "#000000" });
    expect(await as(alice).update(tag.id, { color: "#ffffff" })).toMatchObject({ id: tag.id, name: "Bills", color: "#ffffff" });
    await as(alice).delete(tag.id);
    await expectAppError(as(alice).get(tag.id), "record_not_found");
    await expectAppError(as(alice).delete(tag.id), "record_not_found");
  });

  it("answers validation_failed with every message for invalid input", async () => {
    const blank = await expectAppError(as(alice).create({ name: "   " }), "validation_failed");
    expect(blank.errors).toEqual(["Name can't be blank"]);
    const both = await expectAppError(as(alice).create({ name: "x".repeat(101), color: "red" }), "validation_failed");
    expect(both.errors).toHaveLength(2);
    await expectAppError(as(alice).get("not-a-uuid"), "validation_failed");
    expect((await as(alice).list()).map((tag) => tag.name)).not.toContain("x".repeat(101));
  });

  it("answers validation_failed, not an internal error, for a name PostgreSQL cannot store (a NUL character)", async () => {
    await expectAppError(as(alice).create({ name: "Nul\u0000Tag" }), "validation_failed");
  });
});
