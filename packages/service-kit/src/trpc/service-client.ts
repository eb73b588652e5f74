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
 * A call's input already written as JSON (off the event loop: a 10 MB import file, see
 * OffThreadJson): the client sends these bytes as the call's body instead of stringifying the
 * input itself. Mutations only (a query's input travels in the URL).
 */
export class SerializedInput {
  constructor(readonly json: Uint8Array) {}
}

/** tRPC's answer to one call (no batching, no transformer): its result, or our error formatter's error. */
interface TrpcEnvelope {
  result?: { data?: unknown };
  error?: { data?: { appError?: unknown } };
}

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

  /** A mutation sent as tRPC's httpLink would send it, with the JSON already written. */
  const postSerialized = async (procedure: string, input: SerializedInput, headers: Record<string, string>): Promise<unknown> => {
    const unavailable = (cause: unknown) => new AppError("service_unavailable", { message: `The ${options.service} service is unavailable`, cause });
    let status: number;
    let envelope: TrpcEnvelope | null;
    try {
      const res = await fetch(`${options.url}/trpc/${procedure}`, {
        method: "POST",
        headers: { ...headers, "content-type": "application/json" },
        body: input.json,
      });
      status = res.status;
      envelope = (await res.json()) as TrpcEnvelope | null;
    } catch (cause) {
      throw unavailable(cause);
    }
    // As tRPC's client: an answer is a result or an error, anything else is no answer.
    if (typeof envelope !== "object" || envelope === null) throw unavailable(new Error(`answer ${status} without a tRPC envelope`));
    if (envelope.error !== undefined)
      throw appErrorOf(envelope.error?.data?.appError, options.service, new Error(`answer ${status}: ${JSON.stringify(envelope.error)}`));
    if (status < 200 || status >= 300 || envelope.result === undefined) throw unavailable(new Error(`answer ${status} without a result`));
    return envelope.result.data;
  };

  return (procedure, kind, input, ctx) =>
    tracer.startActiveSpan(
      `trpc.client ${options.service}/${procedure}`,
      { kind: SpanKind.CLIENT, attributes: { "rpc.system": "trpc", "rpc.service": options.service, "rpc.method": procedure } },
      async (span) => {
        try {
          const headers: Record<string, string> = { [INTERNAL_AUTH_HEADER]: await sign(options.service, ctx) };
          propagation.inject(context.active(), headers);
          if (input instanceof SerializedInput) {
            if (kind !== "mutation") throw new Error("an input already written as JSON is a mutation's body");
            return await postSerialized(procedure, input, headers);
          }
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
  if (err instanceof AppError) return err;
  if (err instanceof TRPCClientError) return appErrorOf((err.data as { appError?: unknown } | undefined)?.appError, service, err);
  return new AppError("internal_server_error", { cause: err });
}

/** The service's own error when it sent one, else `service_unavailable`. */
function appErrorOf(appError: unknown, service: string, cause: unknown): AppError {
  const wire = WireAppErrorSchema.safeParse(appError);
  if (!wire.success) return new AppError("service_unavailable", { message: `The ${service} service is unavailable`, cause });
  return new AppError(wire.data.code, {
    message: wire.data.message,
    details: wire.data.details ?? undefined,
    errors: wire.data.errors ?? undefined,
    importId: wire.data.importId ?? undefined,
  });
}

// Re-exported so apps need not depend on @trpc/client directly for typed clients.
export { createTRPCClient };
