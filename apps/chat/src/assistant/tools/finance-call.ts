import { routes, type ProcedureName, type Routes } from "@hearth/contracts";
import type { z } from "zod";

/** A finance procedure call already bound to the asking actor (the runner builds it from the service client). */
export type FinanceCall = (procedure: string, kind: "query" | "mutation", input: unknown) => Promise<unknown>;

type FinanceProcedure = { [K in ProcedureName]: Routes[K]["owner"] extends "finance" ? K : never }[ProcedureName];
type Part<P> = P extends z.ZodType ? z.input<P> : unknown;
/** What a procedure takes on the wire: its path parameters, query and body merged, before parsing. */
type WireInput<K extends FinanceProcedure> = Part<Routes[K]["params"]> & Part<Routes[K]["query"]> & Part<Routes[K]["body"]>;
type Answer<K extends FinanceProcedure> = Routes[K]["response"] extends infer R extends z.ZodType ? z.output<R> : never;

/** A finance route called by name, its input typed and its answer checked against the route's response schema. */
export type FinanceRoutes = <K extends FinanceProcedure>(procedure: K, input: WireInput<K>) => Promise<Answer<K>>;

export function financeRoutes(finance: FinanceCall): FinanceRoutes {
  return async (procedure, input) => {
    const route = routes[procedure];
    const answer = await finance(procedure, route.method === "GET" ? "query" : "mutation", input);
    return (route.response as z.ZodType).parse(answer) as never;
  };
}
