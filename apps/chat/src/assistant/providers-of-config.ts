import type { ChatConfig } from "../config";
import type { AssistantProvider } from "./assistant-types";
import { createOpenAiCompatibleProvider } from "./providers/openai-compatible";

/** The configured model endpoint, if any (the built-in assistant is added by the service in any case). */
export function providersOf(config: ChatConfig): AssistantProvider[] {
  if (!config.ASSISTANT_OPENAI_BASE_URL) return [];
  return [
    createOpenAiCompatibleProvider({
      baseUrl: config.ASSISTANT_OPENAI_BASE_URL,
      // Local servers (Ollama, LM Studio) take any key; the client insists on one.
      apiKey: config.ASSISTANT_OPENAI_API_KEY ?? "none",
      models: config.ASSISTANT_OPENAI_MODELS ?? ["gpt-4.1"],
      timeoutMs: config.ASSISTANT_REPLY_TIMEOUT_SECONDS * 1000,
    }),
  ];
}
