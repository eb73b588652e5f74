import type { AccountType } from "@hearth/contracts";
import { ACCOUNTABLE_TYPES } from "../../family-exports/sure-values";

/** Family::DataImporter::ACCOUNTABLE_TYPE_CLASSES: the accountable types an Account record may name. */
export const SURE_ACCOUNTABLE_TYPES = [
  "Depository",
  "Investment",
  "Crypto",
  "Property",
  "Vehicle",
  "OtherAsset",
  "CreditCard",
  "Loan",
  "OtherLiability",
] as const;
export type SureAccountableType = (typeof SURE_ACCOUNTABLE_TYPES)[number];

export const isSureAccountableType = (type: string): type is SureAccountableType => (SURE_ACCOUNTABLE_TYPES as readonly string[]).includes(type);

/** Hearth's account type for each of Sure's accountable classes (the export writer's map, inverted). */
export const HEARTH_ACCOUNT_TYPES = Object.fromEntries(Object.entries(ACCOUNTABLE_TYPES).map(([hearth, sure]) => [sure, hearth])) as Record<
  SureAccountableType,
  AccountType
>;
