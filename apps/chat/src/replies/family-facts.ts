import { FamilySettingsSchema } from "@hearth/contracts";
import type { FamilyFacts } from "../assistant/assistant-types";
import type { FinanceCall } from "../assistant/tools";
import { todayIn } from "../assistant/today";

/** The family's currency, locale and today, from its settings in finance (read for the asking user). */
export async function familyFactsOf(finance: FinanceCall, now = new Date()): Promise<FamilyFacts> {
  const settings = FamilySettingsSchema.parse(await finance("familySettings.get", "query", {}));
  return { currency: settings.currency, locale: settings.locale, timezone: settings.timezone, today: todayIn(settings.timezone, now) };
}
