import type { AccountType } from "./accounts";

/**
 * Sure's subtypes for each account type: the keys of each accountable's SUBTYPES, in Sure's order
 * (app/models/depository.rb, investment.rb, crypto.rb, property.rb, credit_card.rb, loan.rb).
 * Vehicle, OtherAsset and OtherLiability have none of their own (Accountable's empty SUBTYPES),
 * so they take any subtype, as SureImport::Preflight#validate_accountables lets them.
 */
export const ACCOUNT_SUBTYPES = {
  depository: ["checking", "savings", "hsa", "cd", "money_market"],
  investment: [
    ...["brokerage", "401k", "roth_401k", "403b", "457b", "tsp", "ira", "roth_ira", "sep_ira", "simple_ira", "529_plan", "hsa", "ugma", "utma"],
    ...["isa", "lisa", "sipp", "workplace_pension_uk"],
    ...["tfsa", "rrsp", "non-registered", "fhsa", "rdsp", "resp", "dpsp", "prpp", "lira", "rrif", "lif", "lrif", "prif", "rlif"],
    ...["super", "smsf", "assurance_vie", "pea", "pillar_3a", "riester"],
    ...["nps", "apy", "life_insurance", "indian_stocks", "indian_equity", "indian_etf", "ppf", "ssy", "nsc", "scss", "fd", "rd", "pomis", "kvp"],
    ...["g_sec", "sdl", "corporate_bond", "infrastructure_bond", "tax_free_bond", "gold_etf", "gold_mf", "sgb"],
    ...["pension", "retirement", "mutual_fund", "gold", "angel", "trust", "other"],
  ],
  crypto: ["wallet", "exchange"],
  property: [
    ...["single_family_home", "multi_family_home", "condominium", "townhouse", "investment_property", "second_home", "apartment", "plot"],
    ...["commercial", "agri_land"],
  ],
  vehicle: null,
  credit_card: ["credit_card"],
  loan: ["mortgage", "student", "auto", "home_equity", "line_of_credit", "business", "other"],
  other_asset: null,
  other_liability: null,
} as const satisfies Record<AccountType, readonly string[] | null>;

/** A subtype Sure lists for `T` (never for a type without a list). */
export type ListedSubtype<T extends AccountType> = (typeof ACCOUNT_SUBTYPES)[T] extends readonly (infer S)[] ? S : never;

const LISTED: ReadonlyMap<AccountType, ReadonlySet<string>> = new Map(
  Object.entries(ACCOUNT_SUBTYPES).flatMap(([type, list]) => (list === null ? [] : [[type as AccountType, new Set<string>(list)] as const])),
);

/** Whether Sure takes `subtype` for `type`: one it lists, any for a type without a list; none (blank) always. */
export function isKnownSubtype(type: AccountType, subtype: string | null | undefined): boolean {
  const listed = LISTED.get(type);
  return !subtype || listed === undefined || listed.has(subtype);
}

/** Why `subtype` is no subtype of `type`, naming the ones it may be; null when it is one. */
export function subtypeProblem(type: AccountType, subtype: string | null | undefined): string | null {
  if (isKnownSubtype(type, subtype)) return null;
  return `Subtype ${JSON.stringify(subtype)} is not a ${type} subtype; use one of: ${ACCOUNT_SUBTYPES[type]!.join(", ")}`;
}
