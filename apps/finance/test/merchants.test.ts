import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { MerchantSchema, type Actor, type Merchant } from "@hearth/contracts";
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
});
