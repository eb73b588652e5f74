import { CookieJar } from "./cookie-jar";
import { interactionPath } from "./interactions";

const maxHops = 10;

export interface HeadlessWalkOptions {
  /** The provider's origin: redirects that leave it have reached the client. */
  providerOrigin: string;
  /** A redirect to one of these (query aside) has reached the client even on the provider's origin. */
  redirectUris: readonly string[];
}

/**
 * Plays the browser in the authorization-code flow: follows the provider's redirects with a
 * fresh cookie jar (a new browser, so no earlier session is reused), answers the interaction
 * pages as `sub`, and returns the redirect to the client without following it.
 */
export async function walkAuthorization(authorizeUrl: string, sub: string, options: HeadlessWalkOptions): Promise<URL> {
  const jar = new CookieJar();
  const redirectTargets = new Set(options.redirectUris.map(withoutQuery));
  let url = new URL(authorizeUrl);
  for (let hop = 0; hop < maxHops; hop++) {
    if (url.origin === options.providerOrigin && url.pathname.startsWith(interactionPath(""))) url.searchParams.set("sub", sub);
    const cookie = jar.header(url);
    const response = await fetch(url, { redirect: "manual", headers: cookie ? { cookie } : {} });
    jar.store(url, response);
    const location = response.headers.get("location");
    if (response.status < 300 || response.status >= 400 || !location) {
      const body = await response.text();
      throw new Error(`authorization stopped at ${url.pathname} with HTTP ${response.status}: ${body.slice(0, 500)}`);
    }
    await response.body?.cancel();
    const next = new URL(location, url);
    if (next.origin !== options.providerOrigin || redirectTargets.has(withoutQuery(next))) return next;
    url = next;
  }
  throw new Error(`authorization did not reach the client after ${maxHops} redirects`);
}

function withoutQuery(url: string | URL): string {
  const parsed = new URL(url);
  return `${parsed.origin}${parsed.pathname}`;
}
