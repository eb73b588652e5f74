/** One answer; status 0 when no HTTP answer came (connection refused or reset, timeout), `error` saying which. */
export interface Answer {
  status: number;
  // The JSON of many routes, read field by field (as system-tests' helpers read theirs).
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  body: any;
  headers: Headers;
  error?: string;
}

/** The cause's code of a failed fetch (ECONNREFUSED, ECONNRESET, UND_ERR_SOCKET...), else its message. */
function failureOf(error: unknown): string {
  let cause: unknown = error;
  for (let depth = 0; depth < 6 && cause instanceof Error; depth++) {
    const code = (cause as { code?: unknown }).code;
    if (typeof code === "string") return code;
    if (cause.name === "TimeoutError") return "timeout";
    cause = cause.cause;
  }
  return error instanceof Error ? error.message : String(error);
}

/** A request to the gateway the way a client sends it; never throws for a failed connection (status 0). */
export async function request(
  baseUrl: string,
  method: string,
  path: string,
  options: { body?: unknown; apiKey?: string; token?: string; headers?: Record<string, string>; timeoutMs?: number } = {},
): Promise<Answer> {
  const headers: Record<string, string> = { accept: "application/json", ...options.headers };
  if (options.body !== undefined) headers["content-type"] = "application/json";
  if (options.apiKey) headers["x-api-key"] = options.apiKey;
  if (options.token) headers.authorization = `Bearer ${options.token}`;
  try {
    const response = await fetch(`${baseUrl}${path}`, {
      method,
      headers,
      body: options.body === undefined ? undefined : JSON.stringify(options.body),
      signal: AbortSignal.timeout(options.timeoutMs ?? 30_000),
    });
    const text = await response.text();
    const body: unknown = text && response.headers.get("content-type")?.includes("json") ? JSON.parse(text) : text;
    return { status: response.status, body, headers: response.headers };
  } catch (error) {
    return { status: 0, body: null, headers: new Headers(), error: failureOf(error) };
  }
}

/** Counts per status (and per failure for status 0), e.g. { "200": 950, "503": 41, "0:ECONNREFUSED": 2 }. */
export class StatusTally {
  readonly counts: Record<string, number> = {};
  add(answer: Answer): void {
    const key = answer.status === 0 ? `0:${answer.error ?? "unknown"}` : String(answer.status);
    this.counts[key] = (this.counts[key] ?? 0) + 1;
  }
  count(status: number | string): number {
    return this.counts[String(status)] ?? 0;
  }
  get total(): number {
    return Object.values(this.counts).reduce((sum, count) => sum + count, 0);
  }
}
