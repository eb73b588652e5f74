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

/**
 * Each accountable class's SUBTYPES keys in Sure (app/models/<type>.rb); a class without the
 * constant (Vehicle, OtherAsset, OtherLiability) takes any subtype, as Sure's preflight does.
 */
export const SURE_SUBTYPES: Partial<Record<SureAccountableType, ReadonlySet<string>>> = {
  Depository: new Set(["checking", "savings", "hsa", "cd", "money_market"]),
  Investment: new Set([
    ...["brokerage", "401k", "roth_401k", "403b", "457b", "tsp", "ira", "roth_ira", "sep_ira", "simple_ira", "529_plan", "hsa", "ugma", "utma"],
    ...["isa", "lisa", "sipp", "workplace_pension_uk", "tfsa", "rrsp", "fhsa", "rdsp", "resp", "dpsp", "prpp", "lira", "rrif", "lif", "lrif"],
    ...["prif", "rlif", "super", "smsf", "assurance_vie", "pea", "pillar_3a", "riester", "nps", "apy", "life_insurance", "indian_stocks"],
    ...["indian_equity", "indian_etf", "ppf", "ssy", "nsc", "scss", "fd", "rd", "pomis", "kvp", "g_sec", "sdl", "corporate_bond"],
    ...["infrastructure_bond", "tax_free_bond", "gold_etf", "gold_mf", "sgb", "pension", "retirement", "mutual_fund", "gold", "angel", "trust", "other"],
  ]),
  Crypto: new Set(["wallet", "exchange"]),
  Property: new Set([
    ...["single_family_home", "multi_family_home", "condominium", "townhouse", "investment_property", "second_home", "apartment", "plot"],
    ...["commercial", "agri_land"],
  ]),
  CreditCard: new Set(["credit_card"]),
  Loan: new Set(["mortgage", "student", "auto", "home_equity", "line_of_credit", "business", "other"]),
};
