import { defineResourceRoutes } from "../define-resource-routes";
import { FamilySettingsSchema, UpdateFamilySettingsBodySchema } from "../../resources/family-settings";
import { READ } from "../../route-access";

export const familySettingsRoutes = defineResourceRoutes("finance", "familySettings", {
  get: {
    method: "GET",
    path: "/api/v1/family_settings",
    summary: "Retrieve family settings",
    tag: "Family Settings",
    response: FamilySettingsSchema,
    status: 200,
    access: READ,
  },
  update: {
    method: "PATCH",
    path: "/api/v1/family_settings",
    summary: "Change family settings (admins only)",
    tag: "Family Settings",
    body: UpdateFamilySettingsBodySchema,
    response: FamilySettingsSchema,
    status: 200,
    access: { auth: "any", scope: "read_write", role: "admin" },
  },
});
