import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { MerchantSchema, type Actor, type Merchant, type MerchantImport } from "@hearth/contracts";
import { contextOf, expectAppError, newActor, startFinance, type RunningFinance } from "./support";

let finance: RunningFinance;
const alice = newActor();
const bob = newActor(); // another family

beforeAll(async () => {
  finance = await startFinance();
});
afterAll(async () => finance?.stop());

const as = (actor: Actor) => ({
  list: () => finance.call("merchants.list", "query", {}, contextOf(actor)) as Promise<Merchant[]>,
  get: (id: string) => finance.call("merchants.get", "query", { id }, contextOf(actor)) as Promise<Merchant>,
  create: (merchant: unknown) => finance.call("merchants.create", "mutation", { merchant }, contextOf(actor)) as Promise<Merchant>,
  update: (id: string, merchant: unknown) => finance.call("merchants.update", "mutation", { id, merchant }, contextOf(actor)) as Promise<Merchant>,
  delete: (id: string) => finance.call("merchants.delete", "mutation", { id }, contextOf(actor)),
  import: (rows: unknown[]) => finance.call("merchants.import", "mutation", { rows }, contextOf(actor)) as Promise<MerchantImport>,
});

describe("finance merchants", () => {
  it("creates a family merchant (trimmed name, colour kept) under the family of the signed context", async () => {
    const created = MerchantSchema.parse(await as(alice).create({ name: "  Corner Shop ", color: "#aabbcc" }));
    expect(created).toMatchObject({ name: "Corner Shop", type: "FamilyMerchant" });
    const row = await finance.db.merchant.findUniqueOrThrow({ where: { id: created.id } });
    expect(row).toMatchObject({ familyId: alice.familyId, color: "#aabbcc" });
    expect(await as(alice).get(created.id)).toEqual(created);
  });

  it("answers record_not_found to another family and never lists its merchants", async () => {
    const merchant = await as(alice).create({ name: "Alice's Garage" });
    await expectAppError(as(bob).get(merchant.id), "record_not_found");
    expect(await as(bob).list()).toEqual([]);
  });

  it("refuses a name already used in the family, but not in another family", async () => {
    await as(alice).create({ name: "Bakery" });
    const error = await expectAppError(as(alice).create({ name: "Bakery" }), "validation_failed");
    expect(error.errors).toEqual(["Name has already been taken"]);
    await expect(as(bob).create({ name: "Bakery" })).resolves.toMatchObject({ name: "Bakery" });
  });

  it("lists the family's merchants sorted by name", async () => {
    const family = newActor();
    for (const name of ["Butcher", "Chemist", "Alehouse"]) await as(family).create({ name });
    expect((await as(family).list()).map((merchant) => merchant.name)).toEqual(["Alehouse", "Butcher", "Chemist"]);
  });

  it("answers validation_failed for a blank or too long name and a bad colour", async () => {
    for (const merchant of [{ name: "" }, { name: "x".repeat(201) }, { name: "Ok", color: "blue" }, {}]) {
      const error = await expectAppError(as(alice).create(merchant), "validation_failed");
      expect(error.errors?.length, JSON.stringify(merchant)).toBeGreaterThan(0);
    }
  });

  it("renames, recolours and deletes a family merchant; another family gets 404; names stay unique", async () => {
    const merchant = await as(alice).create({ name: "Edit Bakery" });
    await as(alice).create({ name: "Edit Butcher" });
    const renamed = MerchantSchema.parse(await as(alice).update(merchant.id, { name: " Village Bakery ", color: "#112233" }));
    expect(renamed).toMatchObject({ id: merchant.id, name: "Village Bakery" });
    expect((await finance.db.merchant.findUniqueOrThrow({ where: { id: merchant.id } })).color).toBe("#112233");
    await expectAppError(as(alice).update(merchant.id, { name: "Edit Butcher" }), "validation_failed");
    await expectAppError(as(bob).update(merchant.id, { name: "Mine" }), "record_not_found");
    await expectAppError(as(bob).delete(merchant.id), "record_not_found");
    await as(alice).delete(merchant.id);
    await expectAppError(as(alice).get(merchant.id), "record_not_found");
  });

  it("leaves provider merchants as their provider made them", async () => {
    const row = await finance.db.merchant.create({ data: { familyId: alice.familyId, name: "Provider Coffee", kind: "ProviderMerchant" } });
    await expectAppError(as(alice).update(row.id, { name: "Renamed" }), "validation_failed");
    await expectAppError(as(alice).delete(row.id), "validation_failed");
  });
});

describe("finance merchants: the CSV import's rows (Sure's merchants#create)", () => {
  it("creates new names in file order with their colour, skips names the family or an earlier row has, and passes over blank names", async () => {
    const importer = newActor();
    await as(importer).create({ name: "Already Here" });
    await as(bob).create({ name: "Only Bob's" });
    const result = await as(importer).import([
      { name: " Fresh Fruit ", color: "#00ff00" },
      { name: "Already Here" },
      { name: "   ", color: "#123456" },
      { name: "Only Bob's", color: "red" },
      { name: "Fresh Fruit" },
      { name: "x".repeat(201) },
    ]);
    expect(result).toMatchObject({ imported: 2, skipped: 3 });
    expect(result.merchants.map((merchant) => merchant.name)).toEqual(["Fresh Fruit", "Only Bob's"]);
    const rows = await finance.db.merchant.findMany({ where: { familyId: importer.familyId }, orderBy: { name: "asc" } });
    expect(rows.map((row) => [row.name, row.color])).toEqual([
      ["Already Here", null],
      ["Fresh Fruit", "#00ff00"],
      ["Only Bob's", null], // "red" is no hex colour: dropped, as Sure replaces it
    ]);
  });

  it("reads a name Hearth's export guarded against formula injection back as it was", async () => {
    const result = await as(newActor()).import([{ name: "'+1 Shop" }, { name: "'Quoted" }]);
    expect(result.merchants.map((merchant) => merchant.name)).toEqual(["+1 Shop", "'Quoted"]);
  });

  it("imports nothing from no rows", async () => {
    expect(await as(newActor()).import([])).toEqual({ imported: 0, skipped: 0, merchants: [] });
  });
});
