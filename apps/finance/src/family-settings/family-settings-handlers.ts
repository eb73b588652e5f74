import type { RouteHandler } from "@hearth/service-kit";
import { toFamilySettingsResource, type FamilySettingsRepository } from "./family-settings-repository";

export function createFamilySettingsHandlers(settings: FamilySettingsRepository) {
  const get: RouteHandler<"familySettings.get"> = async ({ ctx }) => toFamilySettingsResource(await settings.get(ctx.actor.familyId));
  const update: RouteHandler<"familySettings.update"> = async ({ ctx, input }) =>
    toFamilySettingsResource(await settings.update(ctx.actor.familyId, input.family_settings));
  return { "familySettings.get": get, "familySettings.update": update };
}
