import { buildServiceRouter, createServiceServer, databaseReadiness, type ServiceDeps } from "@hearth/service-kit";
import type { FinanceDb } from "./db";
import { createAccountHandlers } from "./accounts/account-handlers";
import { createAccountRepository } from "./accounts/account-repository";
import { createBalanceHandlers } from "./balances/balance-handlers";
import { createBalanceRepository } from "./balances/balance-repository";
import { createCategoryHandlers } from "./categories/category-handlers";
import { createCategoryRepository } from "./categories/category-repository";
import { createExchangeRateRepository } from "./exchange-rates/exchange-rate-repository";
import { resyncOnRateChange } from "./exchange-rates/rate-change";
import { createFamilySettingsHandlers } from "./family-settings/family-settings-handlers";
import { createFamilySettingsRepository } from "./family-settings/family-settings-repository";
import { createMerchantHandlers } from "./merchants/merchant-handlers";
import { createMerchantRepository } from "./merchants/merchant-repository";
import { createSyncHandlers } from "./syncs/sync-handlers";
import { createSyncRepository } from "./syncs/sync-repository";
import { createSyncWorker } from "./syncs/sync-worker";
import { createTagHandlers } from "./tags/tag-handlers";
import { createTagRepository } from "./tags/tag-repository";
import { createTransactionHandlers } from "./transactions/transaction-handlers";
import { createTransactionRepository } from "./transactions/transaction-repository";
import { createTransferHandlers } from "./transfers/transfer-handlers";
import { createTransferRepository } from "./transfers/transfer-repository";
import { createValuationHandlers } from "./valuations/valuation-handlers";
import { createValuationRepository } from "./valuations/valuation-repository";

export type FinanceDeps = ServiceDeps<FinanceDb>;

/** Wires the finance service by hand: repositories, handlers, router, server, background worker. Tests start exactly this. */
export function createFinanceService(deps: FinanceDeps) {
  const { db } = deps;
  const worker = createSyncWorker({ db, log: deps.log });
  const settings = createFamilySettingsRepository(db);
  const familyCurrency = async (familyId: string) => (await settings.get(familyId)).currency;
  const router = buildServiceRouter("finance", {
    ...createTagHandlers(createTagRepository(db)),
    ...createCategoryHandlers(createCategoryRepository(db)),
    ...createFamilySettingsHandlers(settings),
    ...createMerchantHandlers(createMerchantRepository(db)),
    ...createAccountHandlers(createAccountRepository(db, worker, familyCurrency)),
    ...createTransactionHandlers(createTransactionRepository(db, worker)),
    ...createValuationHandlers(createValuationRepository(db, worker)),
    ...createTransferHandlers(createTransferRepository(db, worker)),
    ...createBalanceHandlers(createBalanceRepository(db), db, familyCurrency),
    ...createSyncHandlers(createSyncRepository(db, worker), createExchangeRateRepository(db, resyncOnRateChange(db, worker))),
  });
  const server = createServiceServer({
    service: "finance",
    router,
    log: deps.log,
    internalAuthSecret: deps.internalAuthSecret,
    readiness: databaseReadiness(db),
  });
  return { router, server, worker, start: () => worker.start(), stop: () => worker.stop() };
}
