import { lookup as dnsLookup } from "node:dns/promises";
import type { LookupAddress } from "node:dns";
import { request as httpRequest, type IncomingHttpHeaders, type IncomingMessage } from "node:http";
import { request as httpsRequest } from "node:https";
import { isIP, type LookupFunction } from "node:net";
import { classifyAddress, refusalOf, type AddressClass } from "./address-classes";

/** Where server-side requests to addresses that users configure may go. */
export interface OutboundPolicy {
  /** Loopback and private networks are reachable (an operator's flag, e.g. SSO_ALLOW_PRIVATE_ISSUERS); link-local, metadata and the like never are. */
  allowPrivateAddresses: boolean;
  /** Only https URLs (production). */
  httpsOnly: boolean;
  /** Every address of a host name; the system resolver unless set (tests answer their own). */
  resolveHost?: (hostname: string) => Promise<LookupAddress[]>;
  /** How an address is judged; classifyAddress unless set (tests call a loopback address public). */
  classifyAddress?: (address: string) => AddressClass;
}

/** A URL or address the policy does not allow: nothing was sent to it. The message says why, for an admin. */
export class OutboundRefused extends Error {
  constructor(
    message: string,
    /** Refused only for being private: the policy's allowPrivateAddresses would allow it. */
    readonly privateAddress = false,
  ) {
    super(message);
    this.name = "OutboundRefused";
  }
}

/** A request that was made but failed: unreachable, timed out, too large an answer, a redirect too many. */
export class OutboundFailed extends Error {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = "OutboundFailed";
  }
}

/** The answer passed its byte cap: the transfer was cut there. */
export class OutboundTooLarge extends OutboundFailed {
  constructor(message: string) {
    super(message);
    this.name = "OutboundTooLarge";
  }
}

export interface OutboundRequest {
  method?: "GET" | "POST";
  headers?: Record<string, string>;
  body?: string;
  /** The answer's body is read up to this many bytes; past it the transfer is cut and the request fails. */
  maxBytes: number;
  /** For the whole exchange, redirects and body included. */
  timeoutMs: number;
  /** Redirects to follow (GET only), each checked like the first URL; past it the request fails. 0: answer the redirect itself. */
  maxRedirects?: number;
  signal?: AbortSignal;
}

export interface OutboundResponse {
  status: number;
  headers: IncomingHttpHeaders;
  body: Buffer;
  /** Where the answer came from, after redirects. */
  url: string;
}

/** Longer URLs are not real endpoints: a provider's or an admin's mistake, or an attack. */
export const MAX_URL_LENGTH = 2048;
const REDIRECTS = new Set([301, 302, 303, 307, 308]);

/**
 * HTTP(S) requests to URLs that users (family admins) or third parties (SSO providers, bank
 * bridges) chose, made so that they cannot reach the service's own network: every address a host name resolves
 * to is checked, and the connection goes to a checked address (the check is the socket's DNS
 * lookup, so a second, different DNS answer cannot slip in between). Redirects are checked the
 * same way; answers are capped in bytes while they stream, and every exchange has a deadline.
 */
export function createOutboundHttp(policy: OutboundPolicy) {
  const resolveHost = policy.resolveHost ?? ((hostname: string) => dnsLookup(hostname, { all: true }));
  const classify = policy.classifyAddress ?? classifyAddress;

  /** Throws OutboundRefused when the address may not be reached, saying `what` about it. */
  const assertAllowed = (address: string, what: (refused: string) => string) => {
    const found = classify(address);
    const refused = refusalOf(found, policy.allowPrivateAddresses);
    if (refused) throw new OutboundRefused(what(refused), found.kind === "private");
  };

  /** The URL if its form is allowed (scheme, no credentials, length, an allowed literal address); throws OutboundRefused. */
  function checkUrl(raw: string): URL {
    if (raw.length > MAX_URL_LENGTH) throw new OutboundRefused(`is longer than ${MAX_URL_LENGTH} characters`);
    let url: URL;
    try {
      url = new URL(raw);
    } catch {
      throw new OutboundRefused("is not a URL");
    }
    if (url.protocol !== "https:" && (policy.httpsOnly || url.protocol !== "http:")) {
      throw new OutboundRefused(policy.httpsOnly ? "must be an https URL" : "must be an http(s) URL");
    }
    if (url.username || url.password) throw new OutboundRefused("must not contain a user name or password");
    const literal = literalAddress(url);
    if (literal) assertAllowed(literal, (refused) => `points at ${refused} (${literal})`);
    return url;
  }

  /** Every address of the host, each allowed; throws OutboundRefused, or the resolver's error. */
  async function checkedAddresses(hostname: string): Promise<LookupAddress[]> {
    const addresses = await resolveHost(hostname);
    if (addresses.length === 0) throw new OutboundFailed(`${hostname} has no address`);
    for (const { address } of addresses) assertAllowed(address, (refused) => `resolves to ${refused}`);
    return addresses;
  }

  /** The URL's form and every address its host has now; throws OutboundRefused, or OutboundFailed / the resolver's error. */
  async function checkDestination(raw: string, timeoutMs: number): Promise<URL> {
    const url = checkUrl(raw);
    if (!literalAddress(url)) await withDeadline(checkedAddresses(url.hostname), timeoutMs, `${url.hostname} did not resolve within ${timeoutMs} ms`);
    return url;
  }

  /** The socket's own lookup: it connects only to addresses this check let through. */
  const guardedLookup: LookupFunction = (hostname, options, callback) => {
    checkedAddresses(hostname).then(
      (addresses) => {
        const usable = options.family === 4 || options.family === 6 ? addresses.filter((a) => a.family === options.family) : addresses;
        const [first] = usable;
        if (!first) return callback(Object.assign(new Error(`${hostname} has no IPv${options.family} address`), { code: "ENOTFOUND" }), "", 0);
        if (options.all) callback(null, usable);
        else callback(null, first.address, first.family);
      },
      (err: unknown) => callback(err as NodeJS.ErrnoException, "", 0),
    );
  };

  /** One exchange, no redirect followed. */
  function send(url: URL, init: OutboundRequest, signal: AbortSignal): Promise<OutboundResponse> {
    return new Promise((resolve, reject) => {
      const request = url.protocol === "https:" ? httpsRequest : httpRequest;
      const req = request(url, {
        method: init.method ?? "GET",
        headers: { ...init.headers, ...(init.body !== undefined ? { "content-length": String(Buffer.byteLength(init.body)) } : {}) },
        lookup: guardedLookup,
        // A fresh connection each time: a pooled one may lead to an address checked for another request.
        agent: false,
        signal,
      });
      req.on("error", reject);
      req.once("response", (res) => void readCapped(res, init.maxBytes, url).then(resolve, reject));
      req.end(init.body);
    });
  }

  /**
   * Requests `raw` within the policy. Refusals throw OutboundRefused before anything is sent to
   * the refused address; failures throw OutboundFailed (or OutboundRefused for a refused redirect).
   */
  async function fetch(raw: string, init: OutboundRequest): Promise<OutboundResponse> {
    let url = checkUrl(raw);
    const deadline = AbortSignal.timeout(init.timeoutMs);
    const signal = init.signal ? AbortSignal.any([deadline, init.signal]) : deadline;
    const maxRedirects = init.method === "POST" ? 0 : (init.maxRedirects ?? 0);
    try {
      for (let redirects = 0; ; redirects++) {
        const response = await send(url, init, signal);
        const location = response.headers.location;
        if (!REDIRECTS.has(response.status) || !location || maxRedirects === 0) return response;
        if (redirects >= maxRedirects) throw new OutboundFailed(`more than ${maxRedirects} redirects`);
        const next = new URL(location, url).toString();
        try {
          url = checkUrl(next);
        } catch (err) {
          throw err instanceof OutboundRefused ? new OutboundRefused(`redirected to ${next}, which ${err.message}`, err.privateAddress) : err;
        }
      }
    } catch (err) {
      if (err instanceof OutboundRefused || err instanceof OutboundFailed) throw err;
      if (deadline.aborted) throw new OutboundFailed(`no answer within ${init.timeoutMs} ms`, { cause: err });
      throw new OutboundFailed(err instanceof Error ? err.message : String(err), { cause: err });
    }
  }

  return { checkUrl, checkDestination, fetch };
}
export type OutboundHttp = ReturnType<typeof createOutboundHttp>;

/** `work`, or OutboundFailed(`message`) once `ms` have passed (a resolver that hangs). */
function withDeadline<T>(work: Promise<T>, ms: number, message: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const deadline = new Promise<never>((_resolve, reject) => {
    timer = setTimeout(() => reject(new OutboundFailed(message)), ms);
  });
  return Promise.race([work, deadline]).finally(() => clearTimeout(timer));
}

/** The IP address a URL names literally (brackets of IPv6 removed), or null for a host name. */
function literalAddress(url: URL): string | null {
  const host = url.hostname.startsWith("[") ? url.hostname.slice(1, -1) : url.hostname;
  return isIP(host) ? host : null;
}

/** The body, refused as soon as it passes `maxBytes` (by its Content-Length, or while it streams). */
async function readCapped(res: IncomingMessage, maxBytes: number, url: URL): Promise<OutboundResponse> {
  const tooLarge = () => new OutboundTooLarge(`${url.origin}${url.pathname} answered a body larger than ${maxBytes} bytes`);
  const declared = Number(res.headers["content-length"]);
  if (Number.isFinite(declared) && declared > maxBytes) {
    res.destroy();
    throw tooLarge();
  }
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of res as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > maxBytes) {
      res.destroy();
      throw tooLarge();
    }
    chunks.push(chunk);
  }
  return { status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks), url: url.toString() };
}
