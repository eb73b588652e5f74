import { buildServiceRouter, createServiceServer, databaseReadiness, type ServiceDeps } from "@hearth/service-kit";
import type { FinanceDb } from "./db";
import { createCategoryHandlers } from "./categories/category-handlers";
import { createCategoryRepository } from "./categories/category-repository";
import { createFamilySettingsHandlers } from "./family-settings/family-settings-handlers";
import { createFamilySettingsRepository } from "./family-settings/family-settings-repository";
import { createMerchantHandlers } from "./merchants/merchant-handlers";
import { createMerchantRepository } from "./merchants/merchant-repository";
import { createTagHandlers } from "./tags/tag-handlers";
import { createTagRepository } from "./tags/tag-repository";

export type FinanceDeps = ServiceDeps<FinanceDb>;

/** Wires the finance service by hand: repositories, handlers, router, server. Tests start exactly this. */
export function createFinanceService(deps: FinanceDeps) {
  const router = buildServiceRouter("finance", {
    ...createTagHandlers(createTagRepository(deps.db)),
    ...createCategoryHandlers(createCategoryRepository(deps.db)),
    ...createFamilySettingsHandlers(createFamilySettingsRepository(deps.db)),
    ...createMerchantHandlers(createMerchantRepository(deps.db)),
  });
  const server = createServiceServer({
    service: "finance",
    router,
    log: deps.log,
    internalAuthSecret: deps.internalAuthSecret,
    readiness: databaseReadiness(deps.db),
  });
  return { router, server };
}
