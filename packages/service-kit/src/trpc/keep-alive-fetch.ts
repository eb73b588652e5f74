import http from "node:http";
import https from "node:https";

/** What tRPC's httpLink reads of a response: it parses the body as JSON and keeps the rest as metadata. */
export interface MinimalResponse {
  ok: boolean;
  status: number;
  headers: http.IncomingHttpHeaders;
  json(): Promise<unknown>;
}

/** A service's answer larger than this is refused: no procedure answers anywhere near it. */
const MAX_RESPONSE_BYTES = 64 * 1024 * 1024;

/**
 * The `fetch` the service client gives tRPC's httpLink: node:http over a keep-alive agent per
 * client, with one deadline for the whole call. The global fetch (undici) spent about a tenth of
 * the gateway's CPU on a by-id read in its request and stream machinery (an A/B in one process: 1.18x
 * the calls per second without it); a call between two of our processes needs none of it. A failure of any kind rejects, which tRPC
 * turns into a client error and the service client into `service_unavailable`.
 */
export function createKeepAliveFetch(timeoutMs: number, maxResponseBytes = MAX_RESPONSE_BYTES) {
  // Idle sockets close after 4 s, before the services' 5 s keep-alive does (as undici did): a call
  // never goes out on a socket the other side is closing.
  const agents = { "http:": new http.Agent({ keepAlive: true, timeout: 4_000 }), "https:": new https.Agent({ keepAlive: true, timeout: 4_000 }) };
  const fetch = (
    url: string | URL,
    init: { method?: string; headers?: Record<string, string>; body?: string | Uint8Array; signal?: AbortSignal | null } = {},
  ) =>
    new Promise<MinimalResponse>((resolve, reject) => {
      const target = typeof url === "string" ? new URL(url) : url;
      const agent = target.protocol === "https:" ? agents["https:"] : agents["http:"];
      const transport = target.protocol === "https:" ? https : http;
      if (init.signal?.aborted) {
        reject(new Error("the call was aborted"));
        return;
      }
      const request = transport.request(target, { method: init.method ?? "GET", headers: init.headers, agent });
      let settled = false;
      const fail = (err: Error) => {
        if (settled) return;
        settle();
        request.destroy();
        reject(err);
      };
      const deadline = setTimeout(() => fail(new Error(`no answer from ${target.host} within ${timeoutMs} ms`)), timeoutMs);
      const onAbort = () => fail(new Error("the call was aborted"));
      init.signal?.addEventListener("abort", onAbort, { once: true });
      function settle() {
        settled = true;
        clearTimeout(deadline);
        init.signal?.removeEventListener("abort", onAbort);
      }
      request.on("error", fail);
      request.on("response", (response) => {
        const chunks: Buffer[] = [];
        let size = 0;
        response.on("data", (chunk: Buffer) => {
          size += chunk.length;
          if (size > maxResponseBytes) fail(new Error(`the answer of ${target.host} exceeds ${maxResponseBytes} bytes`));
          else chunks.push(chunk);
        });
        response.on("error", fail);
        response.on("end", () => {
          if (settled) return;
          settle();
          const text = Buffer.concat(chunks).toString("utf8");
          const status = response.statusCode ?? 0;
          resolve({ ok: status >= 200 && status < 300, status, headers: response.headers, json: async () => JSON.parse(text) as unknown });
        });
      });
      request.end(init.body);
    });
  const close = () => {
    agents["http:"].destroy();
    agents["https:"].destroy();
  };
  return { fetch, close };
}
