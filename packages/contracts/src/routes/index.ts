// Where to add an endpoint: in routes/<owner>/<resource>.ts, the file of the resource it acts on
// (owner: the service that serves it). A new resource gets a new file there, declared with
// `defineResourceRoutes` and spread into that folder's index.ts. The key and procedure name
// (`<resource>.<action>`) and the owner are derived; test/route-layout.test.ts checks the layout.
import type { RouteDef, RouteOwner } from "../route";
import { auditRoutes } from "./audit";
import { chatRoutes } from "./chat";
import { financeRoutes } from "./finance";
import { gatewayRoutes } from "./gateway";
import { notificationsRoutes } from "./notifications";

/**
 * Every public route of Hearth, keyed by the procedure that serves it. Paths, parameters,
 * payloads and statuses follow Sure's OpenAPI file; the spec wins where they differ.
 * The order is the gateway's mounting order and the OpenAPI document's.
 */
export const routes = {
  ...gatewayRoutes,
  ...financeRoutes,
  ...chatRoutes,
  ...notificationsRoutes,
  ...auditRoutes,
} satisfies Record<string, RouteDef>;

export type Routes = typeof routes;
export type ProcedureName = keyof Routes;
export type ProceduresOf<O extends RouteOwner> = {
  [K in ProcedureName]: Routes[K]["owner"] extends O ? K : never;
}[ProcedureName];

export function routesOf(owner: RouteOwner): RouteDef[] {
  return Object.values(routes).filter((route: RouteDef) => route.owner === owner);
}
