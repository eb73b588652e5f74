import type { InternalHandlers, RouteHandler } from "@hearth/service-kit";
import type { FamilySettingsRepository } from "./family-settings-repository";
import { toFamilySettingsResource } from "./family-settings-resource";

export function createFamilySettingsHandlers(settings: FamilySettingsRepository) {
  const get: RouteHandler<"familySettings.get"> = async ({ ctx }) => toFamilySettingsResource(await settings.get(ctx.actor.familyId));
  /** Enabled currencies are a set: a currency given twice is kept once, where it first appears. */
  const update: RouteHandler<"familySettings.update"> = async ({ ctx, input }) => {
    const { enabled_currencies, ...changes } = input.family_settings;
    const row = await settings.update(ctx.actor.familyId, {
      ...changes,
      enabled_currencies: enabled_currencies === undefined ? undefined : [...new Set(enabled_currencies)],
    });
    return toFamilySettingsResource(row);
  };
  return { "familySettings.get": get, "familySettings.update": update };
}

/** The gateway's question before every chat route: is the assistant on for the actor's family (a family never seen has the default, on)? */
export function createFamilyAiSwitchHandler(settings: FamilySettingsRepository): Pick<InternalHandlers<"finance">, "familySettings.aiEnabled"> {
  return { "familySettings.aiEnabled": async ({ ctx }) => ({ ai_enabled: await settings.aiEnabled(ctx.actor.familyId) }) };
}
