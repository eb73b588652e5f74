export { generateDemoLedger, randomSource, type SeedAccount, type SeedLedger, type SeedPlan } from "./demo-ledger";
export { writeLedger } from "./bulk-write";
export { seedDemoFamily, type DemoFamilyOptions } from "./seed-demo-family";
