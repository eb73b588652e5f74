import type { OutputOf } from "@hearth/contracts";
import type { SsoIdentity, SsoProvider } from "../../generated/prisma/client";

export function toSsoIdentityResource(row: SsoIdentity & { provider: Pick<SsoProvider, "name"> }): OutputOf<"ssoIdentities.list">["sso_identities"][number] {
  return {
    id: row.id,
    provider_id: row.providerId,
    provider: row.provider.name,
    email: row.email,
    created_at: row.createdAt.toISOString(),
    last_login_at: row.lastLoginAt?.toISOString() ?? null,
  };
}
