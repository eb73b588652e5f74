import type { Role, SsoProvider } from "@hearth/contracts";

export interface ProviderRow {
  id: string;
  familyId: string;
  name: string;
  issuer: string;
  clientId: string;
  clientSecret: string;
  scopes: string;
  enabled: boolean;
  allowAccountCreation: boolean;
  defaultRole: Role;
  roleClaim: string | null;
  adminClaimValues: string[];
  createdAt: Date;
  updatedAt: Date;
}

/** The provider as admins see it: everything but the client secret. */
export function providerResource(row: ProviderRow): SsoProvider {
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
