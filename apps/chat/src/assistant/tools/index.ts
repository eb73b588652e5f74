export { createAssistantTools } from "./assistant-tools";
