import { IMPORT_JSON_LIMIT_BYTES } from "@hearth/contracts";
import { buildServiceRouter, createServiceServer, databaseReadiness, databaseUrlOf, observeJob, type ServiceDeps } from "@hearth/service-kit";
import { createJobRunner } from "@hearth/service-kit/jobs";
import type { FinanceDb } from "./db";
import { createAccountHandlers } from "./accounts/account-handlers";
import { accountRemovalJob } from "./accounts/account-removal-job";
import { ACCOUNT_REMOVAL_QUEUE } from "./accounts/account-removal-queries";
import { createAccountRepository } from "./accounts/account-repository";
import { createBalanceHandlers } from "./balances/balance-handlers";
import { materializeBalances } from "./balances/balance-materializer";
import { createBalanceRepository } from "./balances/balance-repository";
import { createBalanceSheetQueries } from "./balances/balance-sheet-queries";
import { createBudgetHandlers } from "./budgets/budget-handlers";
import { createBudgetRepository } from "./budgets/budget-repository";
import { createCategoryHandlers } from "./categories/category-handlers";
import { createCategoryRepository } from "./categories/category-repository";
import { createExchangeRateHandlers } from "./exchange-rates/exchange-rate-handlers";
import { createExchangeRateRepository } from "./exchange-rates/exchange-rate-repository";
import { createFamilyAiSwitchHandler, createFamilySettingsHandlers } from "./family-settings/family-settings-handlers";
import { createFamilySettingsRepository } from "./family-settings/family-settings-repository";
import { createLedgerImportHandlers } from "./ledger-import/ledger-import-handlers";
import { DEFAULT_FAMILY_PURGE_LIMITS, createFamilyDataHandlers, type FamilyPurgeLimits } from "./family-data/family-data-handlers";
import { createFamilyDataRepository } from "./family-data/family-data-repository";
import { createFamilyExportChunkHandler, createFamilyExportHandlers } from "./family-exports/family-export-handlers";
import { createFamilyExportRepository } from "./family-exports/family-export-repository";
import { createImportHandlers } from "./imports/import-handlers";
import { createImportRepository } from "./imports/import-repository";
import { createImportSessionHandlers } from "./imports/sessions/import-session-handlers";
import { importSessionExpiryJob } from "./imports/sessions/import-session-expiry";
import { createImportSessionRepository } from "./imports/sessions/import-session-repository";
import { DEFAULT_IMPORT_PUBLISH, importPublishJob, type ImportPublishOptions } from "./imports/import-publish-job";
import { IMPORT_PUBLISH_QUEUE } from "./imports/import-publish-queue-queries";
import { familyExportJob, type FamilyExportBuildOptions } from "./family-exports/family-export-job";
import { FAMILY_EXPORT_QUEUE } from "./family-exports/family-export-queue-queries";
import { createLedgerImportRepository } from "./ledger-import/ledger-import-repository";
import { createMerchantHandlers } from "./merchants/merchant-handlers";
import { createMerchantRepository } from "./merchants/merchant-repository";
import { createProviderConnectionsModule, type ProviderConnectionOptions } from "./provider-connections/provider-connections-module";
import { createRecurringModule, type RecurringScanOptions } from "./recurring/recurring-module";
import { createRulesModule } from "./rules/rules-module";
import { createSyncHandlers } from "./syncs/sync-handlers";
import { registerSyncQueueMetrics } from "./syncs/sync-metrics";
import { BALANCE_SYNC_QUEUE, createSyncQueueQueries } from "./syncs/sync-queue-queries";
import { createSyncRepository } from "./syncs/sync-repository";
import { balanceSyncJob } from "./syncs/balance-sync-job";
import type { RuleRunChunking } from "./rules/rule-run-job";
import { RULE_RUN_QUEUE } from "./rules/rule-run-progress-queries";
import type { SyncSignal } from "./syncs/sync-signal";
import { createTagHandlers } from "./tags/tag-handlers";
import { createTagRepository } from "./tags/tag-repository";
import { createTransactionHandlers } from "./transactions/transaction-handlers";
import { createTransactionRepository } from "./transactions/transaction-repository";
import { createTransferHandlers } from "./transfers/transfer-handlers";
import { createTransferMatchQueries } from "./transfers/transfer-match-queries";
import { createTransferMatcher } from "./transfers/transfer-matcher";
import { createTransferRepository } from "./transfers/transfer-repository";
import { createHoldingHandlers } from "./holdings/holding-handlers";
import { createHoldingRepository } from "./holdings/holding-repository";
import { createIncomeStatementRepository } from "./insights/income-statement-repository";
import { createInsightsHandlers } from "./insights/insights-handlers";
import { createSecurityHandlers } from "./securities/security-handlers";
import { createSecurityPriceRepository } from "./securities/security-price-repository";
import { createSecurityRepository } from "./securities/security-repository";
import { createTradeHandlers } from "./trades/trade-handlers";
import { createTradeRepository } from "./trades/trade-repository";
import { createValuationHandlers } from "./valuations/valuation-handlers";
import { createValuationRepository } from "./valuations/valuation-repository";

export type FinanceDeps = ServiceDeps<FinanceDb> & {
  /** Serve the internal bulk import (developer tools only; see LEDGER_IMPORT in config.ts). */
  ledgerImport?: boolean;
  /** How recurring detection is debounced and retried (tests shorten it; DEFAULT_RECURRING_SCAN otherwise). */
  recurringScan?: Partial<RecurringScanOptions>;
  /** Batch size, time budget and timeouts of a family purge step (tests shrink them). */
  familyPurge?: Partial<FamilyPurgeLimits>;
  /** How an export's archive is stored (tests cut small slices). */
  familyExport?: FamilyExportBuildOptions;
  /** Bytes of uploaded import files one family may keep in all (IMPORT_FAMILY_MAX_MB; FAMILY_IMPORT_BYTES when left out). */
  importFamilyBytes?: number;
  /** How long an import's publish may take (tests shorten it). */
  importPublish?: Partial<ImportPublishOptions>;
  /** How a rule run is cut into chunks (tests shrink them). */
  ruleRunChunking?: RuleRunChunking;
  /** How the job runner polls for due jobs and beats running jobs' heartbeats (tests change them). */
  jobs?: { pollMs?: number; heartbeatMs?: number };
  /** Provider connections: which bridge addresses are reached (PROVIDER_ALLOW_PRIVATE_HOSTS), timeouts, and how often connections sync. */
  providerConnections?: Partial<ProviderConnectionOptions>;
};

/**
 * Wires the finance service by hand: repositories and query modules on the database, handlers on
 * those, the router, the server and the background worker. Tests start exactly this.
 */
export function createFinanceService(deps: FinanceDeps) {
  const { db } = deps;
  const accounts = createAccountRepository(db);
  const settings = createFamilySettingsRepository(db);
  const familyCurrency = async (familyId: string) => (await settings.get(familyId)).currency;
  const budgetRepository = createBudgetRepository(db, (familyId) => settings.get(familyId));
  const transactions = createTransactionRepository(db);
  const transfers = createTransferRepository(db);
  const recurring = createRecurringModule(db, deps.log, deps.recurringScan);
  // A committed change that queued a sync or an account removal starts it now, not at the next poll.
  const syncSignal: SyncSignal = {
    poke: () => jobs.poke(BALANCE_SYNC_QUEUE),
    removalQueued: () => jobs.poke(ACCOUNT_REMOVAL_QUEUE),
  };
  const balanceSync = balanceSyncJob({
    queries: createSyncQueueQueries(db),
    accounts,
    // Timed per account in background_job_duration_seconds{job="balance_materialize"} (outcome ok or error).
    materialize: (accountId, windowStart) => observeJob("balance_materialize", () => materializeBalances(db, accountId, windowStart)),
    matcher: createTransferMatcher(createTransferMatchQueries(db)),
    log: deps.log,
    afterRun: (familyId) => recurring.requestScan(familyId),
  });
  const rules = createRulesModule(db, deps.log, () => jobs.poke(RULE_RUN_QUEUE), deps.ruleRunChunking);
  const familyExports = createFamilyExportRepository(db);
  const importRepository = createImportRepository(db, deps.importFamilyBytes);
  const providers = createProviderConnectionsModule(db, deps.log, deps.internalAuthSecret, (queue) => jobs.poke(queue), deps.providerConnections);
  const jobs = createJobRunner({
    databaseUrl: databaseUrlOf(db),
    db,
    log: deps.log,
    definitions: [
      balanceSync,
      accountRemovalJob(db, accounts),
      recurring.job,
      importPublishJob(db, importRepository, deps.log, { ...DEFAULT_IMPORT_PUBLISH, ...deps.importPublish }),
      importSessionExpiryJob(db),
      rules.job,
      familyExportJob(db, familyExports, deps.log, deps.familyExport),
      providers.job,
    ],
    ...deps.jobs,
  });
  const router = buildServiceRouter(
    "finance",
    {
      ...createTagHandlers(createTagRepository(db)),
      ...createCategoryHandlers(createCategoryRepository(db)),
      ...createFamilySettingsHandlers(settings),
      ...createMerchantHandlers(createMerchantRepository(db)),
      ...createAccountHandlers(accounts, syncSignal, familyCurrency),
      ...createTransactionHandlers(transactions, syncSignal),
      ...createValuationHandlers(createValuationRepository(db), syncSignal),
      ...createTransferHandlers(transfers, syncSignal),
      ...createTradeHandlers(createTradeRepository(db), transactions, transfers, syncSignal),
      ...createSecurityHandlers(createSecurityRepository(db), createSecurityPriceRepository(db), syncSignal, familyCurrency),
      ...createHoldingHandlers(createHoldingRepository(db)),
      ...createBalanceHandlers(createBalanceRepository(db), createBalanceSheetQueries(db), familyCurrency),
      ...createExchangeRateHandlers(createExchangeRateRepository(db), syncSignal),
      ...createSyncHandlers(createSyncRepository(db), syncSignal),
      ...recurring.handlers,
      ...rules.handlers,
      ...createFamilyExportHandlers(familyExports, () => jobs.poke(FAMILY_EXPORT_QUEUE)),
      ...createImportHandlers(importRepository, familyCurrency, () => jobs.poke(IMPORT_PUBLISH_QUEUE)),
      ...createImportSessionHandlers(createImportSessionRepository(db, deps.importFamilyBytes), () => jobs.poke(IMPORT_PUBLISH_QUEUE)),
      ...createBudgetHandlers(budgetRepository),
      ...providers.handlers,
    },
    {
      ...createLedgerImportHandlers(createLedgerImportRepository(db), { enabled: deps.ledgerImport ?? false }),
      ...createFamilyDataHandlers(createFamilyDataRepository(db), { ...DEFAULT_FAMILY_PURGE_LIMITS, ...deps.familyPurge }),
      ...createFamilyExportChunkHandler(familyExports),
      ...createFamilyAiSwitchHandler(settings),
      ...createInsightsHandlers(createIncomeStatementRepository(db), budgetRepository, familyCurrency),
    },
  );
  const server = createServiceServer({
    service: "finance",
    router,
    // Imports carry their file as JSON text: up to 10 MB, escaped.
    maxBodyBytes: IMPORT_JSON_LIMIT_BYTES,
    // Two such uploads handled at once (read in turns beside every other request; two, so that a
    // Sure upload waiting for an NDJSON read never holds them all); families take turns, and one
    // family's uploads past two waiting, or waiting 5 s, are refused (429) unread.
    largeBodies: { thresholdBytes: 1024 * 1024, slots: 2, waiting: 8, waitingPerFamily: 2, maxWaitMs: 5_000 },
    log: deps.log,
    internalAuthSecret: deps.internalAuthSecret,
    readiness: databaseReadiness(db),
  });
  registerSyncQueueMetrics(db);
  return {
    router,
    server,
    jobs,
    start: async () => {
      jobs.start();
    },
    // Jobs that end within 5 s finish; the others stop at their next check and wait for the next instance.
    stop: () => jobs.stop({ graceMs: 5_000 }),
  };
}
