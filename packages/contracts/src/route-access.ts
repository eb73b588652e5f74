/** The access rules routes share; `as const` keeps them literal for the route types. */
export const READ = { auth: "any", scope: "read" } as const;
export const WRITE = { auth: "any", scope: "read_write" } as const;
export const PUBLIC = { auth: "public" } as const;
/** Bearer tokens only: actions on the signed-in person's own credentials, never by API key. */
export const BEARER_READ = { auth: "bearer" } as const;
export const BEARER_WRITE = { auth: "bearer", scope: "read_write" } as const;
