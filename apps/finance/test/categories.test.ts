import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { CategoryCollectionSchema, CategorySchema, type Actor, type Category } from "@hearth/contracts";
import { DEFAULT_CATEGORIES } from "../src/categories/default-categories";
import { contextOf, expectAppError, newActor, startFinance, type RunningFinance } from "./support";

let finance: RunningFinance;

beforeAll(async () => {
  finance = await startFinance();
});
afterAll(async () => finance?.stop());

const as = (actor: Actor) => ({
  list: async (query: Record<string, unknown> = {}) => CategoryCollectionSchema.parse(await finance.call("categories.list", "query", query, contextOf(actor))),
  get: (id: string) => finance.call("categories.get", "query", { id }, contextOf(actor)) as Promise<Category>,
  create: async (category: unknown) => CategorySchema.parse(await finance.call("categories.create", "mutation", { category }, contextOf(actor))),
  update: (id: string, category: unknown) => finance.call("categories.update", "mutation", { id, category }, contextOf(actor)) as Promise<Category>,
  delete: (id: string) => finance.call("categories.delete", "mutation", { id }, contextOf(actor)),
});

const defaultCount = DEFAULT_CATEGORIES.reduce((sum, category) => sum + 1 + (category.subcategories?.length ?? 0), 0);

describe("finance categories", () => {
  it("gives a new family the default set once, with parents, subcategories and classifications", async () => {
    const actor = newActor();
    const all = await as(actor).list({ per_page: 100 });
    expect(all.pagination).toEqual({ page: 1, per_page: 100, total_count: defaultCount, total_pages: 1 });
    const food = all.categories.find((category) => category.name === "Food & Drink");
    const groceries = all.categories.find((category) => category.name === "Groceries");
    expect(food).toMatchObject({ parent: null, subcategories_count: 2, classification: "expense" });
    expect(groceries).toMatchObject({ parent: { id: food?.id, name: "Food & Drink" }, color: food?.color, classification: "expense" });
    expect(all.categories.find((category) => category.name === "Salary")?.classification).toBe("income");

    for (const category of all.categories) await as(actor).delete(category.id);
    expect((await as(actor).list()).pagination.total_count).toBe(0); // deleted defaults do not come back
  });

  it("filters roots and children of a parent, and pages as Sure does", async () => {
    const actor = newActor();
    const roots = await as(actor).list({ roots_only: true, per_page: 100 });
    expect(roots.categories.every((category) => category.parent === null)).toBe(true);
    expect(roots.pagination.total_count).toBe(DEFAULT_CATEGORIES.length);
    const housing = roots.categories.find((category) => category.name === "Housing");
    const children = await as(actor).list({ parent_id: housing?.id });
    expect(children.categories.map((category) => category.name)).toEqual(["Home Maintenance", "Rent & Mortgage"]);

    const page2 = await as(actor).list({ page: 2, per_page: 5 });
    expect(page2.categories).toHaveLength(5);
    expect(page2.pagination).toEqual({ page: 2, per_page: 5, total_count: defaultCount, total_pages: Math.ceil(defaultCount / 5) });
    expect((await as(actor).list({ per_page: 500 })).pagination.per_page).toBe(100);
  });

  it("creates categories with Sure's defaults: colour #6172F3, an icon suggested from the name, subcategories inheriting", async () => {
    const actor = newActor();
    const pets = await as(actor).create({ name: "Pets" });
    expect(pets).toMatchObject({ color: "#6172F3", icon: "paw-print", classification: "expense", parent: null, subcategories_count: 0 });
    const side = await as(actor).create({ name: "Side gigs", color: "#22c55e", icon: "briefcase", classification: "income" });
    const tips = await as(actor).create({ name: "Tips", parent_id: side.id });
    expect(tips).toMatchObject({ color: "#22c55e", classification: "income", parent: { id: side.id, name: "Side gigs" } });
    expect((await as(actor).get(side.id)).subcategories_count).toBe(1);
  });

  it("keeps two levels at most, one name per family, and refuses another family's parent", async () => {
    const actor = newActor();
    const parent = await as(actor).create({ name: "Kids" });
    const child = await as(actor).create({ name: "School", parent_id: parent.id });
    await expectAppError(as(actor).create({ name: "Books", parent_id: child.id }), "validation_failed");
    await expectAppError(as(actor).update(parent.id, { parent_id: (await as(actor).create({ name: "Other root" })).id }), "validation_failed");
    await expectAppError(as(actor).update(child.id, { parent_id: child.id }), "validation_failed");
    await expectAppError(as(actor).create({ name: "Kids" }), "validation_failed");
    const stranger = newActor();
    await expectAppError(as(stranger).create({ name: "Mine", parent_id: parent.id }), "validation_failed");
    await expectAppError(as(stranger).get(parent.id), "record_not_found");
    await expectAppError(as(stranger).update(parent.id, { name: "Taken" }), "record_not_found");
    await expectAppError(as(stranger).delete(parent.id), "record_not_found");
  });

  it("updates fields and moves a category under a parent; deleting a parent makes its subcategories top-level", async () => {
    const actor = newActor();
    const travel = (await as(actor).list({ roots_only: true, per_page: 100 })).categories.find((category) => category.name === "Travel");
    const hotels = await as(actor).create({ name: "Hotels" });
    const moved = await as(actor).update(hotels.id, { parent_id: travel?.id, icon: "bed", name: "Hotels & Stays" });
    expect(moved).toMatchObject({ name: "Hotels & Stays", icon: "bed", parent: { id: travel?.id } });
    await as(actor).delete(travel?.id ?? "");
    expect(await as(actor).get(hotels.id)).toMatchObject({ parent: null });
    expect((await as(actor).update(hotels.id, { parent_id: null })).parent).toBeNull();
  });
});
