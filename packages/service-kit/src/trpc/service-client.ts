import { SpanKind, SpanStatusCode, context, propagation, trace } from "@opentelemetry/api";
import { TRPCClientError, createTRPCClient, createTRPCUntypedClient, httpLink } from "@trpc/client";
import { AppError, WireAppErrorSchema, type InternalContext } from "@hearth/contracts";
import { INTERNAL_AUTH_HEADER, createInternalSigner } from "../internal-auth";
import { createKeepAliveFetch } from "./keep-alive-fetch";

export interface ServiceClientOptions {
  /** Name of the service called: the audience of the internal token. */
  service: string;
  url: string;
  caller: string;
  internalAuthSecret: string;
  timeoutMs?: number;
}

export type CallKind = "query" | "mutation";
export type ServiceCall = (procedure: string, kind: CallKind, input: unknown, context: Omit<InternalContext, "caller">) => Promise<unknown>;

const tracer = trace.getTracer("@hearth/service-kit/trpc");

/**
 * Calls a service's procedures over tRPC with a signed internal context, the W3C trace
 * context and a timeout. Failures come back as AppError: the service's own error when it
 * sent one, `service_unavailable` when it could not be reached.
 */
export function createServiceClient(options: ServiceClientOptions): ServiceCall {
  const sign = createInternalSigner(options.internalAuthSecret, options.caller);
  const timeoutMs = options.timeoutMs ?? 10_000;
  const { fetch } = createKeepAliveFetch(timeoutMs);
  const client = createTRPCUntypedClient({
    links: [
      httpLink({
        url: `${options.url}/trpc`,
        headers: ({ op }) => op.context["headers"] as Record<string, string>,
        // tRPC reads only json() of what fetch answers.
        fetch: fetch as unknown as typeof globalThis.fetch,
      }),
    ],
  });

  return (procedure, kind, input, ctx) =>
    tracer.startActiveSpan(
      `trpc.client ${options.service}/${procedure}`,
      { kind: SpanKind.CLIENT, attributes: { "rpc.system": "trpc", "rpc.service": options.service, "rpc.method": procedure } },
      async (span) => {
        try {
          const headers: Record<string, string> = { [INTERNAL_AUTH_HEADER]: await sign(options.service, ctx) };
          propagation.inject(context.active(), headers);
          const call =
            kind === "query" ? client.query(procedure, input, { context: { headers } }) : client.mutation(procedure, input, { context: { headers } });
          return await call;
        } catch (err) {
          const appError = toAppError(err, options.service);
          span.setAttribute("hearth.error_code", appError.code);
          if (appError.status >= 500) span.setStatus({ code: SpanStatusCode.ERROR, message: appError.message });
          throw appError;
        } finally {
          span.end();
        }
      },
    );
}

function toAppError(err: unknown, service: string): AppError {
  if (err instanceof TRPCClientError) {
    const wire = WireAppErrorSchema.safeParse((err.data as { appError?: unknown } | undefined)?.appError);
    if (wire.success) {
      return new AppError(wire.data.code, {
        message: wire.data.message,
        details: wire.data.details ?? undefined,
        errors: wire.data.errors ?? undefined,
        importId: wire.data.importId ?? undefined,
      });
    }
    return new AppError("service_unavailable", { message: `The ${service} service is unavailable`, cause: err });
  }
  return new AppError("internal_server_error", { cause: err });
}

// Re-exported so apps need not depend on @trpc/client directly for typed clients.
export { createTRPCClient };
