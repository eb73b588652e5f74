import type { z } from "zod";
import type { RouteDef, RouteOwner } from "../route";

/** A route as its resource file declares it: `owner` and `procedure` come from the file. */
export type ResourceRouteSpec = Omit<RouteDef, "owner" | "procedure">;

type SpecParams<S> = S extends { params: infer P extends NonNullable<RouteDef["params"]> } ? P : undefined;
type SpecQuery<S> = S extends { query: infer Q extends z.ZodType } ? Q : undefined;
type SpecBody<S> = S extends { body: infer B extends z.ZodType } ? B : undefined;
type SpecResponse<S> = S extends { response: infer R extends z.ZodType } ? R : null;

/** The routes of one resource, keyed `<resource>.<action>`, each typed exactly from its spec. */
export type ResourceRoutes<O extends RouteOwner, R extends string, A> = {
  [K in keyof A & string as `${R}.${K}`]: RouteDef<SpecParams<A[K]>, SpecQuery<A[K]>, SpecBody<A[K]>, SpecResponse<A[K]>, O>;
};

/**
 * Declares the routes of one resource. `resource` is the procedure prefix (camelCase, e.g.
 * `apiKeys` in `routes/gateway/api-keys.ts`); each action becomes the route `<resource>.<action>`,
 * served by the procedure of that name on `owner`. Both are derived so they cannot drift.
 */
export function defineResourceRoutes<const O extends RouteOwner, const R extends string, A extends Record<string, ResourceRouteSpec>>(
  owner: O,
  resource: R,
  actions: A,
): ResourceRoutes<O, R, A> {
  const entries = Object.entries(actions).map(([action, spec]) => {
    const procedure = `${resource}.${action}`;
    return [procedure, { ...spec, owner, procedure }] as const;
  });
  return Object.fromEntries(entries) as ResourceRoutes<O, R, A>;
}
