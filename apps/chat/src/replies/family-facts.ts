import { FAMILY_AI_OFF } from "@hearth/contracts";
import { AssistantFailure, type FamilyFacts } from "../assistant/assistant-types";
import { todayIn } from "../assistant/today";
import type { FinanceClient } from "../finance-client";

/** Why an answer asked before the family turned AI off is not produced (the gateway's words). */
export { FAMILY_AI_OFF };

/**
 * The family's currency, locale and today, from its settings in finance (read for the asking
 * user). Read before anything goes to the model's provider: an answer queued or retried after the
 * family turned AI off fails here, and none of the family's data leaves.
 */
export async function familyFactsOf(finance: FinanceClient, now = new Date()): Promise<FamilyFacts> {
  const settings = await finance.call("familySettings.get", {});
  if (!settings.ai_enabled) throw new AssistantFailure(FAMILY_AI_OFF);
  return { currency: settings.currency, locale: settings.locale, timezone: settings.timezone, today: todayIn(settings.timezone, now) };
}
