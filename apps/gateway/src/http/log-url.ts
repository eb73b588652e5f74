/** Query parameters that carry secrets (OAuth codes, state, one-time codes): logged as [redacted]. */
const SECRET_QUERY_KEYS = new Set([
  "code",
  "state",
  "linking_code",
  "invite_code",
  "token",
  "access_token",
  "refresh_token",
  "id_token",
  "key",
  "api_key",
  "password",
  "otp_code",
  "signature",
]);

/** The request URL as logs may show it: path and query, with secret parameters' values replaced. */
export function loggableUrl(url: string): string {
  const queryAt = url.indexOf("?");
  if (queryAt === -1) return url;
  const params = new URLSearchParams(url.slice(queryAt + 1));
  for (const key of [...params.keys()]) if (SECRET_QUERY_KEYS.has(key.toLowerCase())) params.set(key, "[redacted]");
  return `${url.slice(0, queryAt)}?${params.toString()}`;
}
