import type { OutputOf } from "@hearth/contracts";
import { toUserResource, type UserResourceRow } from "../users/user-resource";

/** A fresh token pair as every sign-in and refresh answers it. */
export function toTokenResource(accessToken: string, refreshToken: string, expiresIn: number, issuedAt: Date): OutputOf<"auth.refresh"> {
  return {
    access_token: accessToken,
    refresh_token: refreshToken,
    token_type: "Bearer",
    expires_in: expiresIn,
    created_at: Math.floor(issuedAt.getTime() / 1000),
  };
}

/** Tokens and the signed-in user: the answer of signup, login and the SSO sign-ins. */
export function toAuthResource(tokens: OutputOf<"auth.refresh">, user: UserResourceRow): OutputOf<"auth.login"> {
  return { ...tokens, user: toUserResource(user) };
}
