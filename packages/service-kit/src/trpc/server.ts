import { SpanKind, SpanStatusCode, trace, type Context } from "@opentelemetry/api";
import { TRPCError, initTRPC } from "@trpc/server";
import { ZodError } from "zod";
import { AppError, type Actor, type InternalContext, type WireAppError } from "@hearth/contracts";
import type { Logger } from "pino";
import { messagesOf } from "../zod-messages";
import { TRPC_CODE_OF } from "./error-codes";
import { isDatabaseUnavailable } from "../prisma-errors";
import { trpcRequestDuration, trpcRequestsTotal } from "../metrics/red";
import { startExemplarTimer, traceExemplar } from "../metrics/exemplar";

export interface ServiceContext {
  service: string;
  log: Logger;
  /** Null when the caller did not present a valid internal token. */
  internal: InternalContext | null;
  /** The caller's trace context from the W3C headers: the procedure span continues its trace. */
  traceContext: Context;
  /** The request's input, when its large body was parsed off the event loop (large-body-input.ts). */
  preparsedInput?: (() => Promise<unknown>) | undefined;
}

/** The context handlers see: a verified caller acting for a verified user and family. */
export interface ActorContext extends ServiceContext {
  internal: InternalContext;
  actor: Actor;
  requestId: string;
}

function toWireError(error: TRPCError): WireAppError {
  const cause = error.cause;
  if (cause instanceof AppError) {
    return { code: cause.code, message: cause.message, details: cause.details ?? null, errors: cause.errors ?? null, importId: cause.importId ?? null };
  }
  // Only the input is the caller's fault: a ZodError anywhere else (an answer that breaks its
  // own schema, a parse inside a handler) is a bug of ours, so it is a logged 500.
  if (cause instanceof ZodError && error.code === "BAD_REQUEST") {
    const errors = messagesOf(cause);
    return { code: "validation_failed", message: errors.join(", "), details: null, errors };
  }
  if (isDatabaseUnavailable(cause)) return { code: "service_unavailable", message: "The database is unavailable", details: null, errors: null };
  // The caller sent more than the service's body limit: its fault, not a failure of ours.
  if (error.code === "PAYLOAD_TOO_LARGE") return { code: "payload_too_large", message: "The request body is too large", details: null, errors: null };
  if (error.code === "UNAUTHORIZED") return { code: "unauthorized", message: error.message, details: null, errors: null };
  return { code: "internal_server_error", message: "An unexpected error occurred", details: null, errors: null };
}

const tracer = trace.getTracer("@hearth/service-kit/trpc");

export const t = initTRPC.context<ServiceContext>().create({
  errorFormatter({ shape, error }) {
    return { ...shape, message: toWireError(error).message, data: { appError: toWireError(error) } };
  },
});

/**
 * Every procedure runs in its own span, logs unexpected failures once, with the stack, on the
 * service side, and is counted: calls by outcome code and their duration (see metrics/red.ts).
 * `path` is a procedure of the router (tRPC answers unknown ones before any middleware), so the
 * label values are bounded.
 */
const observed = t.procedure.use(async ({ ctx, path, type, next }) => {
  const endTimer = startExemplarTimer(trpcRequestDuration, { service: ctx.service, procedure: path });
  return tracer.startActiveSpan(
    `trpc.server ${path}`,
    {
      kind: SpanKind.SERVER,
      attributes: {
        "rpc.system": "trpc",
        "rpc.service": ctx.service,
        "rpc.method": path,
        "trpc.type": type,
        // The gateway's X-Request-Id, so logs (request_id) and traces meet on one value.
        ...(ctx.internal ? { "hearth.request_id": ctx.internal.requestId } : {}),
      },
    },
    ctx.traceContext,
    async (span) => {
      let code = "internal_server_error";
      try {
        const result = await (ctx.preparsedInput ? next({ getRawInput: ctx.preparsedInput }) : next());
        code = "ok";
        if (!result.ok) {
          const wire = toWireError(result.error);
          code = wire.code;
          span.setAttribute("hearth.error_code", wire.code);
          if (wire.code === "internal_server_error") {
            span.setStatus({ code: SpanStatusCode.ERROR });
            ctx.log.error({ err: result.error.cause ?? result.error, path }, "procedure failed");
          }
        }
        return result;
      } finally {
        span.end();
        endTimer({}, traceExemplar(span));
        trpcRequestsTotal.inc({ service: ctx.service, procedure: path, code });
      }
    },
  );
});

/** Refuses any call without a valid internal token (an open internal service is itself an auth hole). */
export const internalProcedure = observed.use(({ ctx, next }) => {
  if (!ctx.internal) throw new TRPCError({ code: "UNAUTHORIZED", message: "Internal authentication required" });
  const log = ctx.log.child({ request_id: ctx.internal.requestId, caller: ctx.internal.caller });
  return next({ ctx: { ...ctx, internal: ctx.internal, log } });
});

/** Procedures serving public routes: the gateway must have attached the acting user and family. */
export const actorProcedure = internalProcedure.use(({ ctx, next }) => {
  const actor = ctx.internal.actor;
  if (!actor) throw new TRPCError({ code: "UNAUTHORIZED", message: "No acting user in the internal context" });
  const log = ctx.log.child({ user_id: actor.userId, family_id: actor.familyId });
  return next({ ctx: { ...ctx, actor, requestId: ctx.internal.requestId, log } });
});

export function appErrorToTrpc(error: AppError): TRPCError {
  return new TRPCError({ code: TRPC_CODE_OF[error.code], message: error.message, cause: error });
}
