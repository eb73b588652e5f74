import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { FamilySettingsSchema, type Actor, type FamilySettings } from "@hearth/contracts";
import { contextOf, expectAppError, newActor, startFinance, type RunningFinance } from "./support";

let finance: RunningFinance;

beforeAll(async () => {
  finance = await startFinance();
});
afterAll(async () => finance?.stop());

const as = (actor: Actor) => ({
  get: async () => FamilySettingsSchema.parse(await finance.call("familySettings.get", "query", {}, contextOf(actor))),
  update: async (family_settings: unknown) =>
    FamilySettingsSchema.parse(await finance.call("familySettings.update", "mutation", { family_settings }, contextOf(actor))) as FamilySettings,
});

describe("family settings", () => {
  it("start with Sure's defaults, keyed by the family", async () => {
    const actor = newActor();
    expect(await as(actor).get()).toMatchObject({
      id: actor.familyId,
      name: null,
      currency: "USD",
      locale: "en",
      date_format: "%m-%d-%Y",
      month_start_day: 1,
      moniker: "Family",
      default_account_sharing: "shared",
      custom_enabled_currencies: false,
      enabled_currencies: ["USD"],
      ai_enabled: true,
    });
  });

  it("are made once when a new family's first reads come in parallel (each answers, none fails on the key)", async () => {
    for (let round = 0; round < 5; round++) {
      const actor = newActor();
      const answers = await Promise.all(Array.from({ length: 8 }, () => as(actor).get()));
      expect(new Set(answers.map((answer) => answer.id))).toEqual(new Set([actor.familyId]));
    }
  });

  it("change with validation, and are shared by the family only", async () => {
    const actor = newActor();
    const updated = await as(actor).update({
      currency: "eur",
      locale: "de-CH",
      date_format: "%d.%m.%Y",
      month_start_day: 28,
      moniker: "Group",
      country: "ch",
      timezone: "Europe/Zurich",
    });
    expect(updated).toMatchObject({
      currency: "EUR",
      locale: "de-CH",
      date_format: "%d.%m.%Y",
      month_start_day: 28,
      moniker: "Group",
      country: "CH",
      timezone: "Europe/Zurich",
    });
    expect(await as(newActor({ familyId: actor.familyId })).get()).toEqual(updated);
    expect((await as(newActor()).get()).currency).toBe("USD");

    for (const bad of [
      { month_start_day: 29 },
      { month_start_day: 0 },
      { currency: "XYZ" },
      { moniker: "Clan" },
      { date_format: "%Q" },
      { timezone: "Mars/Base" },
      { locale: "not a locale" },
    ]) {
      await expectAppError(as(actor).update(bad), "validation_failed");
    }
    expect((await as(actor).get()).month_start_day).toBe(28);
  });

  it("enable other currencies only when custom, always with the family currency first", async () => {
    const actor = newActor();
    expect((await as(actor).update({ enabled_currencies: ["GBP"] })).enabled_currencies).toEqual(["USD"]);
    const custom = await as(actor).update({ custom_enabled_currencies: true, enabled_currencies: ["gbp", "JPY", "GBP", "USD"] });
    expect(custom.enabled_currencies).toEqual(["USD", "GBP", "JPY"]);
  });

  it("keep the family's AI switch, which the gateway reads without making a row (a family never seen has it on)", async () => {
    const actor = newActor();
    const aiEnabled = async (who: Actor) => (await finance.call("familySettings.aiEnabled", "mutation", {}, contextOf(who))) as { ai_enabled: boolean };
    expect(await aiEnabled(actor)).toEqual({ ai_enabled: true });
    expect((await as(actor).update({ ai_enabled: false })).ai_enabled).toBe(false);
    expect(await aiEnabled(actor)).toEqual({ ai_enabled: false });
    expect(await aiEnabled(newActor())).toEqual({ ai_enabled: true });
    expect((await as(newActor({ familyId: actor.familyId })).get()).ai_enabled).toBe(false);
    await expectAppError(as(actor).update({ ai_enabled: "no" }), "validation_failed");
  });
});
