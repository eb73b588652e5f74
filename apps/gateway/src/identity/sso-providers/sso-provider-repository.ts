import { AppError, type BodyOf } from "@hearth/contracts";
import type { IdentityDb, IdentityTx } from "../../db";
import type { SsoProvider } from "../../generated/prisma/client";

export type SsoProviderRow = SsoProvider;

/** The columns an update may change. */
export type SsoProviderChanges = Partial<
  Pick<SsoProvider, "name" | "issuer" | "clientId" | "clientSecret" | "scopes" | "allowAccountCreation" | "defaultRole" | "roleClaim" | "adminClaimValues">
>;

/**
 * A family's OpenID Connect providers; the client secret is stored sealed. Methods taking `tx`
 * first run inside the caller's transaction; a trailing `tx` is optional. A name the family
 * already uses fails as a unique violation.
 */
export function createSsoProviderRepository(db: IdentityDb) {
  return {
    list: (familyId: string) => db.ssoProvider.findMany({ where: { familyId }, orderBy: { createdAt: "asc" } }),

    /** Any family's provider: sign-in starts from its id alone. */
    findById: (id: string) => db.ssoProvider.findUnique({ where: { id } }),

    /** The family's provider, or 404. */
    async find(familyId: string, id: string, tx: IdentityTx | IdentityDb = db): Promise<SsoProviderRow> {
      const row = await tx.ssoProvider.findFirst({ where: { id, familyId } });
      if (!row) throw AppError.notFound("SSO provider");
      return row;
    },

    create: (tx: IdentityTx, familyId: string, provider: BodyOf<"ssoProviders.create">["sso_provider"], sealedClientSecret: string) =>
      tx.ssoProvider.create({
        data: {
          familyId,
          name: provider.name,
          issuer: provider.issuer,
          clientId: provider.client_id,
          clientSecret: sealedClientSecret,
          scopes: provider.scopes,
          enabled: provider.enabled,
          allowAccountCreation: provider.allow_account_creation,
          defaultRole: provider.default_role,
          roleClaim: provider.role_claim,
          adminClaimValues: provider.admin_claim_values,
        },
      }),

    update: (tx: IdentityTx, id: string, changes: SsoProviderChanges) => tx.ssoProvider.update({ where: { id }, data: changes }),

    setEnabled: (tx: IdentityTx, id: string, enabled: boolean) => tx.ssoProvider.update({ where: { id }, data: { enabled } }),

    async delete(tx: IdentityTx, id: string): Promise<void> {
      await tx.ssoProvider.delete({ where: { id } });
    },
  };
}
export type SsoProviderRepository = ReturnType<typeof createSsoProviderRepository>;
