import { z } from "zod";
import { serviceEnvSchema } from "@hearth/service-kit";

export const CHAT_DEFAULT_PORT = 4002;

const emptyToUndefined = (value: unknown) => (value === "" ? undefined : value);
const ModelListSchema = z
  .string()
  .transform((list) =>
    list
      .split(",")
      .map((name) => name.trim())
      .filter(Boolean),
  )
  .pipe(z.array(z.string().max(100)).min(1, { message: "must name at least one model" }));

export const ChatEnvSchema = serviceEnvSchema(CHAT_DEFAULT_PORT).extend({
  /** The finance service: the assistant's tools read the family's data through its procedures, never its database. */
  FINANCE_URL: z.url({ protocol: /^https?$/, message: "must be an http:// or https:// URL" }),
  /** The gateway, which owns credentials: an answer asks it whether the asker still holds before it starts and before each write tool. */
  GATEWAY_URL: z.url({ protocol: /^https?$/, message: "must be an http:// or https:// URL" }),
  /**
   * An OpenAI-compatible chat-completions endpoint with tool calling (OpenAI, OpenRouter, Ollama,
   * vLLM, LM Studio), e.g. https://api.openai.com/v1. Unset: only the built-in assistant answers.
   * Set by the operator, so it may be a private address (a local Ollama).
   */
  ASSISTANT_OPENAI_BASE_URL: z.preprocess(emptyToUndefined, z.url({ protocol: /^https?$/, message: "must be an http:// or https:// URL" }).optional()),
  ASSISTANT_OPENAI_API_KEY: z.preprocess(emptyToUndefined, z.string().optional()),
  /** The endpoint's models clients may ask for, comma-separated; the first is the default. */
  ASSISTANT_OPENAI_MODELS: z.preprocess(emptyToUndefined, ModelListSchema.optional()),
  /** An answer not finished in this time fails ("took too long"). */
  ASSISTANT_REPLY_TIMEOUT_SECONDS: z.coerce.number().int().min(5).max(900).default(120),
});
export type ChatConfig = z.infer<typeof ChatEnvSchema>;
