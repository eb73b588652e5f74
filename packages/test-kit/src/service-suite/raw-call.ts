import { INTERNAL_AUTH_HEADER } from "@hearth/service-kit";
import { kindOf, type ProcedureCase } from "./procedure-case";

/** A raw tRPC call, with or without an internal token: what reaches the service if the client is bypassed. */
export async function rawCall(serviceUrl: string, c: ProcedureCase, token?: string): Promise<{ status: number; code: string | undefined }> {
  const headers: Record<string, string> = { "content-type": "application/json", ...(token ? { [INTERNAL_AUTH_HEADER]: token } : {}) };
  const input = JSON.stringify(c.input());
  const res =
    kindOf(c) === "query"
      ? await fetch(`${serviceUrl}/trpc/${c.procedure}?input=${encodeURIComponent(input)}`, { headers })
      : await fetch(`${serviceUrl}/trpc/${c.procedure}`, { method: "POST", headers, body: input });
  const body = (await res.json()) as { error?: { data?: { appError?: { code?: string } } } };
  return { status: res.status, code: body.error?.data?.appError?.code };
}
