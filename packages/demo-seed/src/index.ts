export { generateDemoLedger, type SeedPlan } from "./demo-ledger";
export { randomSource } from "./random-source";
export { emptyLedger, transactionEntry, valuationEntry, type SeedAccount, type SeedLedger } from "./seed-ledger";
export { writeLedger, type FinanceAccess } from "./ledger-writer";
export { publicApi, type PublicApi } from "./public-api";
export { seedDemoFamily, syncFamily, type DemoFamilyOptions } from "./seed-demo-family";
