export interface ApiResponse<T = any> {
  status: number;
  body: T;
  headers: Headers;
}

export interface RequestOptions {
  body?: unknown;
  /** Raw body text, sent as is (malformed JSON tests). */
  rawBody?: string;
  apiKey?: string;
  token?: string;
  headers?: Record<string, string>;
}

/** A thin fetch wrapper for talking to the gateway the way an external client does. */
export function apiClient(baseUrl: string) {
  async function request<T = any>(method: string, path: string, options: RequestOptions = {}): Promise<ApiResponse<T>> {
    const headers: Record<string, string> = { accept: "application/json", ...options.headers };
    if (options.body !== undefined || options.rawBody !== undefined) headers["content-type"] ??= "application/json";
    if (options.apiKey) headers["x-api-key"] = options.apiKey;
    if (options.token) headers.authorization = `Bearer ${options.token}`;
    const response = await fetch(`${baseUrl}${path}`, {
      method,
      headers,
      body: options.rawBody ?? (options.body === undefined ? undefined : JSON.stringify(options.body)),
    });
    const text = await response.text();
    const body = text && response.headers.get("content-type")?.includes("json") ? JSON.parse(text) : text;
    return { status: response.status, body: body as T, headers: response.headers };
  }
  return {
    request,
    get: <T = any>(path: string, options?: RequestOptions) => request<T>("GET", path, options),
    post: <T = any>(path: string, body: unknown, options?: RequestOptions) => request<T>("POST", path, { ...options, body }),
    patch: <T = any>(path: string, body: unknown, options?: RequestOptions) => request<T>("PATCH", path, { ...options, body }),
    put: <T = any>(path: string, body: unknown, options?: RequestOptions) => request<T>("PUT", path, { ...options, body }),
    delete: <T = any>(path: string, options?: RequestOptions) => request<T>("DELETE", path, options),
  };
}

export type ApiClient = ReturnType<typeof apiClient>;
