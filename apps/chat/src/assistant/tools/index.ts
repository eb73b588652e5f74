export { createAssistantTools } from "./assistant-tools";
export type { FinanceCall } from "./finance-call";
