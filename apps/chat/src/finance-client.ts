import { internalProcedures, routes, type ProcedureName, type Routes } from "@hearth/contracts";
import type { CallKind } from "@hearth/service-kit";
import type { z } from "zod";

/** A call of finance already bound to the asking actor (the runner and the tool procedures bind the service client). */
export type FinanceCall = (procedure: string, kind: CallKind, input: unknown) => Promise<unknown>;

type Internal = (typeof internalProcedures)["finance"];
type FinanceRoute = { [K in ProcedureName]: Routes[K]["owner"] extends "finance" ? K : never }[ProcedureName];
/** What chat may ask finance: its public routes (as the asking user would) and its internal procedures. */
export type FinanceProcedure = FinanceRoute | keyof Internal;

// The caller's side of a contract: what it sends (before finance parses it) and what it gets back
// (once parsed), where the contracts' InputOf/OutputOf are the handler's side.
type Part<P> = P extends z.ZodType ? z.input<P> : unknown;
type CallInput<K extends FinanceProcedure> = K extends keyof Internal
  ? z.input<Internal[K]["input"]>
  : K extends FinanceRoute
    ? Part<Routes[K]["params"]> & Part<Routes[K]["query"]> & Part<Routes[K]["body"]>
    : never;
type CallOutput<K extends FinanceProcedure> = K extends keyof Internal
  ? z.output<Internal[K]["output"]>
  : K extends FinanceRoute
    ? Routes[K]["response"] extends infer R extends z.ZodType
      ? z.output<R>
      : void
    : never;

/** Finance's procedures by name, typed from the contracts; each answer is checked against the procedure's schema. */
export interface FinanceClient {
  call<K extends FinanceProcedure>(procedure: K, input: CallInput<K>): Promise<CallOutput<K>>;
}

/** How a procedure is called: internal procedures are mutations, a route as its method says (GET is a query). */
function signatureOf(procedure: FinanceProcedure): { kind: CallKind; output: z.ZodType | null } {
  if (Object.hasOwn(internalProcedures.finance, procedure)) return { kind: "mutation", output: internalProcedures.finance[procedure as keyof Internal].output };
  const route = routes[procedure as FinanceRoute];
  return { kind: route.method === "GET" ? "query" : "mutation", output: route.response ?? null };
}

export function createFinanceClient(finance: FinanceCall): FinanceClient {
  return {
    async call(procedure, input) {
      const { kind, output } = signatureOf(procedure);
      const answer = await finance(procedure, kind, input);
      return (output ? output.parse(answer) : undefined) as never;
    },
  };
}
