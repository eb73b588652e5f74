import { z } from "zod";
import { CurrencyCodeSchema } from "../money";
import { TimestampSchema, UuidSchema } from "../primitives";

/** Sure's date formats (strftime), as its settings offer them. */
export const DATE_FORMATS = ["%m-%d-%Y", "%d.%m.%Y", "%d-%m-%Y", "%Y-%m-%d", "%d/%m/%Y", "%Y/%m/%d", "%m/%d/%Y", "%e/%m/%Y", "%Y.%m.%d"] as const;

const TIMEZONES = new Set(Intl.supportedValuesOf("timeZone"));

/** Typed in any case: "eur" is EUR. */
const Currency = z.string().trim().toUpperCase().pipe(CurrencyCodeSchema);

const LocaleSchema = z
  .string()
  .trim()
  .min(2)
  .max(35)
  .refine(
    (locale) => {
      try {
        return Intl.getCanonicalLocales(locale).length === 1;
      } catch {
        return false;
      }
    },
    { message: "Locale must be a BCP 47 tag like en or de-CH" },
  );

/** The spec's Family settings (section 2). */
export const FamilySettingsSchema = z.object({
  id: UuidSchema,
  name: z.string().nullable(),
  currency: z.string(),
  locale: z.string(),
  date_format: z.string(),
  country: z.string().nullable(),
  timezone: z.string().nullable(),
  month_start_day: z.number().int().min(1).max(28),
  moniker: z.enum(["Family", "Group"]),
  default_account_sharing: z.enum(["shared", "private"]),
  custom_enabled_currencies: z.boolean(),
  enabled_currencies: z.array(z.string()),
  /** Hearth's extension: the family-wide switch of the AI assistant; off, every chat route is 403 `feature_disabled` for every member. */
  ai_enabled: z.boolean(),
  created_at: TimestampSchema,
  updated_at: TimestampSchema,
});
export type FamilySettings = z.infer<typeof FamilySettingsSchema>;

export const UpdateFamilySettingsBodySchema = z.object({
  family_settings: z
    .object({
      name: z.string().trim().min(1).max(100).nullable(),
      currency: Currency,
      locale: LocaleSchema,
      date_format: z.enum(DATE_FORMATS, { message: `Date format must be one of ${DATE_FORMATS.join(", ")}` }),
      country: z
        .string()
        .trim()
        .toUpperCase()
        .regex(/^[A-Z]{2}$/, { message: "Country must be an ISO 3166 alpha-2 code like US" })
        .nullable(),
      timezone: z
        .string()
        .trim()
        .refine((zone) => TIMEZONES.has(zone), { message: "Timezone must be an IANA zone like Europe/Berlin" })
        .nullable(),
      month_start_day: z
        .number()
        .int()
        .min(1, { message: "Month start day must be between 1 and 28" })
        .max(28, { message: "Month start day must be between 1 and 28" }),
      moniker: z.enum(["Family", "Group"]),
      default_account_sharing: z.enum(["shared", "private"]),
      custom_enabled_currencies: z.boolean(),
      enabled_currencies: z.array(Currency).max(200),
      ai_enabled: z.boolean(),
    })
    .partial(),
});
