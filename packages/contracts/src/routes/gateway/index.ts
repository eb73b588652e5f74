import { apiKeysRoutes } from "./api-keys";
import { authRoutes } from "./auth";
import { familyExportDownloadsRoutes } from "./family-export-downloads";
import { invitationsRoutes } from "./invitations";
import { membersRoutes } from "./members";
import { mfaRoutes } from "./mfa";
import { ssoRoutes } from "./sso";
import { ssoIdentitiesRoutes } from "./sso-identities";
import { ssoProvidersRoutes } from "./sso-providers";
import { usageRoutes } from "./usage";
import { usersRoutes } from "./users";

/** Identity and SSO: served by the gateway itself, from its own database. */
export const gatewayRoutes = {
  ...authRoutes,
  ...mfaRoutes,
  ...usersRoutes,
  ...membersRoutes,
  ...invitationsRoutes,
  ...apiKeysRoutes,
  ...usageRoutes,
  ...ssoProvidersRoutes,
  ...ssoRoutes,
  ...ssoIdentitiesRoutes,
  ...familyExportDownloadsRoutes,
};
