import type { SsoProviderRow } from "../sso-providers/sso-provider-repository";
import { OidcError, type IdTokenClaims } from "./oidc-client";
import type { TicketClaims } from "./sso-repository";

/** As the users table takes them (RFC 5321 for the address, the contract's 100 for names). */
const MAX_EMAIL_LENGTH = 254;
const MAX_NAME_LENGTH = 100;
/** As the contract caps admin_claim_values: a longer value can match none. */
const MAX_ROLE_VALUE_LENGTH = 200;
const MAX_ROLE_VALUES = 1000;

/** A claim kept only when it is text of a sensible length: anything else is "not shared". */
const text = (value: unknown, max: number): string | null => (typeof value === "string" && value.length > 0 && value.length <= max ? value : null);

/**
 * The role claim as a ticket keeps it: its strings that could be admin values. Only strings ever
 * match (role-sync), so the rest is dropped; a claim with more values than any provider sends
 * fails the sign-in rather than be cut (a cut could drop the admin value).
 */
function roleClaimOf(value: unknown): string | string[] | null {
  if (typeof value === "string") return text(value, MAX_ROLE_VALUE_LENGTH);
  if (!Array.isArray(value)) return null;
  if (value.length > MAX_ROLE_VALUES) throw new OidcError("invalid_id_token", `the role claim has more than ${MAX_ROLE_VALUES} values`);
  return value.filter((item): item is string => typeof item === "string" && item.length <= MAX_ROLE_VALUE_LENGTH);
}

/** The claims of a verified ID token a ticket keeps, each capped (the ID token itself is, in oidc-client). */
export function ticketClaimsOf(claims: IdTokenClaims, provider: Pick<SsoProviderRow, "roleClaim">): TicketClaims {
  return {
    sub: claims.sub,
    email: text(claims["email"], MAX_EMAIL_LENGTH)?.toLowerCase() ?? null,
    emailVerified: claims["email_verified"] === true,
    firstName: text(claims["given_name"], MAX_NAME_LENGTH),
    lastName: text(claims["family_name"], MAX_NAME_LENGTH),
    roleClaim: provider.roleClaim ? roleClaimOf(claims[provider.roleClaim]) : null,
  };
}
