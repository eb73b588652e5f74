import { AppError } from "@hearth/contracts";
import type { AssistantProvider } from "./assistant-types";

/**
 * The models clients may name and the provider answering each. The first provider's first model
 * is the default (a configured endpoint's, else the built-in assistant's); a model name nobody
 * answers to is 422 listing the available ones.
 */
export function createAssistantRegistry(providers: readonly AssistantProvider[]) {
  const byModel = new Map<string, AssistantProvider>();
  for (const provider of providers) for (const model of provider.models) if (!byModel.has(model)) byModel.set(model, provider);
  const models = [...byModel.keys()];
  const defaultModel = models[0];
  if (defaultModel === undefined) throw new Error("The assistant needs at least one model");

  return {
    models,
    defaultModel,
    /** The model a request names (or the default), checked. */
    resolve(requested: string | undefined): string {
      const model = requested ?? defaultModel;
      if (!byModel.has(model)) {
        throw new AppError("validation_failed", {
          message: `Model ${model} is not available; available models: ${models.join(", ")}`,
          errors: [`Model is not available (available: ${models.join(", ")})`],
        });
      }
      return model;
    },
    providerOf(model: string): AssistantProvider | undefined {
      return byModel.get(model);
    },
  };
}
export type AssistantRegistry = ReturnType<typeof createAssistantRegistry>;
