import { internalProcedures, routes, type ProcedureName, type Routes, type ServiceName } from "@hearth/contracts";
import type { z } from "zod";
import type { CallKind } from "./service-client";

/**
 * A service call bound to one request's context (its actor and request id), read at each call:
 * a caller that reads the actor again before each call (the assistant, before every tool) binds it so.
 */
export type BoundServiceCall = (procedure: string, kind: CallKind, input: unknown) => Promise<unknown>;

type Internal = typeof internalProcedures;
type InternalOf<S extends ServiceName> = S extends keyof Internal ? Internal[S] : Record<never, never>;
type RouteOf<S extends ServiceName> = { [K in ProcedureName]: Routes[K]["owner"] extends S ? K : never }[ProcedureName];
/** What one service may ask another: its public routes (as the asking user would) and its internal procedures. */
export type ProcedureOf<S extends ServiceName> = RouteOf<S> | keyof InternalOf<S>;

// The caller's side of a contract: what it sends (before the service parses it) and what it gets
// back (once parsed), where the contracts' InputOf/OutputOf are the handler's side.
type Part<P> = P extends z.ZodType ? z.input<P> : unknown;
type InternalDef<S extends ServiceName, K> = K extends keyof InternalOf<S> ? InternalOf<S>[K] : never;
type CallInput<S extends ServiceName, K> =
  K extends RouteOf<S>
    ? Part<Routes[K]["params"]> & Part<Routes[K]["query"]> & Part<Routes[K]["body"]>
    : InternalDef<S, K> extends { input: infer I extends z.ZodType }
      ? z.input<I>
      : never;
type CallOutput<S extends ServiceName, K> =
  K extends RouteOf<S>
    ? Routes[K]["response"] extends infer R extends z.ZodType
      ? z.output<R>
      : void
    : InternalDef<S, K> extends { output: infer O extends z.ZodType }
      ? z.output<O>
      : never;

/** A service's procedures by name, typed from the contracts; each answer is checked against its schema. */
export interface TypedServiceClient<S extends ServiceName> {
  call<K extends ProcedureOf<S>>(procedure: K, input: CallInput<S, K>): Promise<CallOutput<S, K>>;
}

/**
 * A typed client of `service` over a bound call: internal procedures are mutations, a route is
 * called as its method says (GET is a query), and the answer is parsed with the procedure's output
 * schema, in one place.
 */
export function createTypedServiceClient<S extends ServiceName>(service: S, call: BoundServiceCall): TypedServiceClient<S> {
  const internal = (internalProcedures as Record<string, Record<string, { output: z.ZodType }>>)[service] ?? {};
  const signatureOf = (procedure: string): { kind: CallKind; output: z.ZodType | null } => {
    // Own keys only: a name such as "toString" is no procedure.
    const known = Object.hasOwn(internal, procedure) ? internal[procedure] : undefined;
    if (known) return { kind: "mutation", output: known.output };
    const route = Object.hasOwn(routes, procedure)
      ? (routes as Record<string, { method: string; owner: string; response: z.ZodType | null }>)[procedure]
      : undefined;
    if (!route || route.owner !== service) throw new Error(`${procedure} is not a procedure of ${service}`);
    return { kind: route.method === "GET" ? "query" : "mutation", output: route.response };
  };
  return {
    async call(procedure, input) {
      const { kind, output } = signatureOf(procedure as string);
      const answer = await call(procedure as string, kind, input);
      return (output ? output.parse(answer) : undefined) as never;
    },
  };
}
