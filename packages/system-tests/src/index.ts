export { startSystem, ServiceHandle, type TestSystem, type StartSystemOptions } from "./start-system";
export { apiClient, type ApiClient, type ApiResponse, type RequestOptions } from "./api-client";
export { signUpUser, logIn, changeCredentialsDirectly, TEST_PASSWORD, DEVICE, SECOND_DEVICE, type TestUser } from "./users";
export { answersWithinOneSecond, eventually } from "./eventually";
export { expectAuditEntries, pendingOutboxCount, type AuditEntry } from "./audit-helpers";
export { APP_REDIRECT, followSsoCallback, ssoProviderSettings, ssoSignIn } from "./sso";
export { accountLine, transactionLine } from "./sure-ndjson";
export { totpCode } from "./totp";
export { racingRefreshes } from "./refresh-race";
