interface StoredCookie {
  name: string;
  value: string;
  path: string;
}

/**
 * The cookies a browser would keep for one origin, enough for oidc-provider: it scopes its
 * interaction cookies by path (`/interaction/<uid>`, `/auth/<uid>`), so paths are honoured.
 */
export class CookieJar {
  readonly #cookies = new Map<string, StoredCookie>();

  /** Records the Set-Cookie headers of a response to a request for `url`. */
  store(url: URL, response: Response): void {
    for (const header of response.headers.getSetCookie()) {
      const [pair = "", ...attributes] = header.split(";").map((part) => part.trim());
      const eq = pair.indexOf("=");
      if (eq <= 0) continue;
      const cookie: StoredCookie = { name: pair.slice(0, eq), value: pair.slice(eq + 1), path: defaultPath(url) };
      let expired = cookie.value === "";
      for (const attribute of attributes) {
        const [rawName = "", ...rest] = attribute.split("=");
        const name = rawName.toLowerCase();
        const value = rest.join("=");
        if (name === "path" && value.startsWith("/")) cookie.path = value;
        if (name === "max-age" && Number(value) <= 0) expired = true;
        if (name === "expires" && Date.parse(value) <= Date.now()) expired = true;
      }
      const key = `${cookie.name};${cookie.path}`;
      if (expired) this.#cookies.delete(key);
      else this.#cookies.set(key, cookie);
    }
  }

  /** The Cookie header for a request to `url`, most specific paths first (as browsers send them). */
  header(url: URL): string {
    return [...this.#cookies.values()]
      .filter((cookie) => pathMatches(url.pathname, cookie.path))
      .sort((a, b) => b.path.length - a.path.length)
      .map((cookie) => `${cookie.name}=${cookie.value}`)
      .join("; ");
  }
}

// RFC 6265 §5.1.4: the directory of the request path.
function defaultPath(url: URL): string {
  const slash = url.pathname.lastIndexOf("/");
  return slash <= 0 ? "/" : url.pathname.slice(0, slash);
}

function pathMatches(requestPath: string, cookiePath: string): boolean {
  if (requestPath === cookiePath) return true;
  if (!requestPath.startsWith(cookiePath)) return false;
  return cookiePath.endsWith("/") || requestPath.charAt(cookiePath.length) === "/";
}
