/** A JSON call to the gateway as a signed-in person: answers are our own API's, read field by field. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- JSON answers of our own API, read field by field
export type PublicApi = (method: string, path: string, body?: unknown) => Promise<any>;

export function publicApi(baseUrl: string, token: () => string | undefined): PublicApi {
  return async (method, path, body) => {
    const auth = token();
    const response = await fetch(new URL(path, baseUrl), {
      method,
      headers: { "content-type": "application/json", ...(auth ? { authorization: `Bearer ${auth}` } : {}) },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
    const text = await response.text();
    if (!response.ok) throw new Error(`${method} ${path} answered ${response.status}: ${text.slice(0, 500)}`);
    return text ? JSON.parse(text) : null;
  };
}
