import { accountsRoutes } from "./accounts";
import { balanceSheetRoutes } from "./balance-sheet";
import { balancesRoutes } from "./balances";
import { budgetCategoriesRoutes } from "./budget-categories";
import { budgetsRoutes } from "./budgets";
import { categoriesRoutes } from "./categories";
import { exchangeRatesRoutes } from "./exchange-rates";
import { familyExportsRoutes } from "./family-exports";
import { familySettingsRoutes } from "./family-settings";
import { holdingsRoutes } from "./holdings";
import { importSessionsRoutes } from "./import-sessions";
import { importsRoutes } from "./imports";
import { merchantsRoutes } from "./merchants";
import { providerConnectionsRoutes } from "./provider-connections";
import { recurringTransactionsRoutes } from "./recurring-transactions";
import { rejectedTransfersRoutes } from "./rejected-transfers";
import { ruleRunsRoutes } from "./rule-runs";
import { rulesRoutes } from "./rules";
import { securitiesRoutes } from "./securities";
import { securityPricesRoutes } from "./security-prices";
import { syncsRoutes } from "./syncs";
import { tagsRoutes } from "./tags";
import { tradesRoutes } from "./trades";
import { transactionsRoutes } from "./transactions";
import { transfersRoutes } from "./transfers";
import { valuationsRoutes } from "./valuations";

/** The finance service: the ledger (accounts, entries, transfers, balances, syncs) and the family's settings and labels. */
export const financeRoutes = {
  ...familyExportsRoutes,
  ...importsRoutes,
  ...importSessionsRoutes,
  ...accountsRoutes,
  ...transactionsRoutes,
  ...valuationsRoutes,
  ...tradesRoutes,
  ...securitiesRoutes,
  ...securityPricesRoutes,
  ...holdingsRoutes,
  ...transfersRoutes,
  ...rejectedTransfersRoutes,
  ...balancesRoutes,
  ...balanceSheetRoutes,
  ...exchangeRatesRoutes,
  ...syncsRoutes,
  ...familySettingsRoutes,
  ...categoriesRoutes,
  ...tagsRoutes,
  ...merchantsRoutes,
  ...rulesRoutes,
  ...ruleRunsRoutes,
  ...recurringTransactionsRoutes,
  ...budgetsRoutes,
  ...budgetCategoriesRoutes,
  ...providerConnectionsRoutes,
};
