import type { OutputOf } from "@hearth/contracts";
import type { SsoProvider } from "../../generated/prisma/client";

/** The provider as admins see it: everything but the client secret. */
export function toSsoProviderResource(row: Omit<SsoProvider, "clientSecret">): OutputOf<"ssoProviders.get"> {
  return {
    id: row.id,
    name: row.name,
    issuer: row.issuer,
    client_id: row.clientId,
    scopes: row.scopes,
    enabled: row.enabled,
    allow_account_creation: row.allowAccountCreation,
    default_role: row.defaultRole,
    role_claim: row.roleClaim,
    admin_claim_values: row.adminClaimValues,
    created_at: row.createdAt.toISOString(),
    updated_at: row.updatedAt.toISOString(),
  };
}
