import { z } from "zod";
import {
  AppError,
  authorize,
  internalProcedures,
  withStorableText,
  routesOf,
  type InternalContext,
  type ProceduresOf,
  type RouteDef,
  type RouteInput,
  type RouteOutput,
  type RouteOwner,
  type Routes,
} from "@hearth/contracts";
import { actorProcedure, appErrorToTrpc, internalProcedure, t, type ActorContext, type ServiceContext } from "./server";

/**
 * A route's handler. `signal` aborts when the caller's connection closes (the gateway gave up
 * after its timeout): long work (reading a large file) stops there.
 */
export type RouteHandler<K extends keyof Routes> = (opts: {
  ctx: ActorContext;
  input: RouteInput<Routes[K]>;
  signal?: AbortSignal | undefined;
}) => Promise<RouteOutput<Routes[K]>>;

/** A service must implement every public route the contracts assign to it, with the declared types. */
export type RouteHandlers<O extends RouteOwner> = { [K in ProceduresOf<O>]: RouteHandler<K> };

/** The schema a procedure validates: path parameters, query and body merged into one object, no NUL characters. */
export function inputSchemaOf(route: RouteDef): z.ZodType {
  const parts = [route.params, route.query, route.body].filter((part): part is NonNullable<typeof part> => part !== undefined);
  if (parts.length === 0) return z.object({});
  return withStorableText(parts.slice(1).reduce<z.ZodType>((merged, part) => z.intersection(merged, part), parts[0] as z.ZodType));
}

type ProcedureTree = { [segment: string]: ProcedureTree | ReturnType<typeof t.procedure.query> };

function insert(tree: ProcedureTree, path: string, procedure: unknown): void {
  const segments = path.split(".");
  let node = tree;
  for (const segment of segments.slice(0, -1)) node = (node[segment] ??= {}) as ProcedureTree;
  const leaf = segments.at(-1) as string;
  // A public route and an internal procedure of one name would silently shadow each other.
  if (leaf in node) throw new Error(`Two procedures named ${path}`);
  node[leaf] = procedure as ProcedureTree;
}

type AnyHandler = (opts: { ctx: ActorContext; input: unknown; signal?: AbortSignal | undefined }) => Promise<unknown>;

type InternalDefs = typeof internalProcedures;
export type InternalService = keyof InternalDefs;
export type InternalCallContext = ServiceContext & { internal: InternalContext };
type InternalDef = { actor: "none" | "required"; input: z.ZodType; output: z.ZodType };

/** Handlers of a service's internal procedures, typed from the contracts: those acting for a family get the actor's context. */
export type InternalHandlers<S extends InternalService> = {
  [K in keyof InternalDefs[S]]: InternalDefs[S][K] extends { actor: infer A; input: infer I extends z.ZodType; output: infer O extends z.ZodType }
    ? (opts: { ctx: A extends "required" ? ActorContext : InternalCallContext; input: z.output<I> }) => Promise<z.input<O>>
    : never;
};

/**
 * Builds a service's tRPC router from the contracts: one procedure per route it owns
 * (GET routes are queries, the rest mutations), each validating input and output.
 */
export function buildServiceRouter<O extends RouteOwner>(owner: O, handlers: RouteHandlers<O>, internal?: InternalHandlers<O & InternalService>) {
  const tree: ProcedureTree = {};
  for (const route of routesOf(owner)) {
    const handler = (handlers as unknown as Record<string, AnyHandler>)[route.procedure];
    if (!handler) throw new Error(`No handler for ${route.procedure}`);
    const access = route.access;
    const base = actorProcedure
      .use(({ ctx, next }) => {
        authorize(ctx.actor, access);
        return next();
      })
      .input(inputSchemaOf(route))
      .output(route.response ?? z.void());
    const procedure =
      route.method === "GET"
        ? base.query(({ ctx, input, signal }) => handler({ ctx, input, signal }))
        : base.mutation(({ ctx, input, signal }) => handler({ ctx, input, signal }));
    insert(tree, route.procedure, procedure);
  }
  const serviceOnly = internalProcedure.use(({ ctx, next }) => {
    // Service-to-service calls act for no user: a token minted for a user's request cannot reach them.
    if (ctx.internal.actor !== null) throw appErrorToTrpc(new AppError("forbidden", { message: "Internal procedures take no acting user" }));
    return next();
  });
  const defs = (internalProcedures as Record<string, Record<string, InternalDef>>)[owner] ?? {};
  for (const [name, def] of Object.entries(defs)) {
    const handler = (internal as Record<string, (opts: { ctx: unknown; input: unknown }) => Promise<unknown>> | undefined)?.[name];
    if (!handler) throw new Error(`No handler for internal procedure ${owner}/${name}`);
    const base = def.actor === "required" ? actorProcedure : serviceOnly;
    insert(
      tree,
      name,
      base
        .input(withStorableText(def.input))
        .output(def.output)
        .mutation(({ ctx, input }) => handler({ ctx, input })),
    );
  }
  return t.router(tree as never);
}
