import { createHash, timingSafeEqual } from "node:crypto";

/**
 * The token Prometheus must present at `GET /metrics` (`Authorization: Bearer <token>`):
 * `explicit` when the caller passes one (even undefined: none), otherwise METRICS_TOKEN from the
 * environment, which the config schema validated at start-up. Empty means none.
 */
export function metricsTokenOf(options: { metricsToken?: string | undefined }): string | undefined {
  const token = "metricsToken" in options ? options.metricsToken : process.env.METRICS_TOKEN;
  return token ? token : undefined;
}

/**
 * Whether an Authorization header carries the metrics token. Both sides are hashed first, so the
 * comparison takes the same time whatever the header holds, its length included.
 */
export function hasMetricsToken(authorization: string | undefined, token: string): boolean {
  const presented = /^Bearer\s+(\S+)\s*$/i.exec(authorization ?? "")?.[1] ?? "";
  const digest = (text: string) => createHash("sha256").update(text).digest();
  return timingSafeEqual(digest(presented), digest(token)) && presented.length > 0;
}
