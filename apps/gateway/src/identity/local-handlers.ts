import type { Actor, ProceduresOf, RouteInput, RouteOutput, Routes } from "@hearth/contracts";

/** Facts about the HTTP request that audit events record. */
export interface RequestFacts {
  ipAddress: string | null;
  userAgent: string | null;
  requestId: string;
  /** This gateway's origin as the client reached it (e.g. https://hearth.example): where SSO providers send the browser back. */
  baseUrl: string;
}

export type LocalHandler<K extends ProceduresOf<"gateway">> = (opts: {
  actor: Actor | null;
  input: RouteInput<Routes[K]>;
  request: RequestFacts;
}) => Promise<RouteOutput<Routes[K]>>;

/** The routes the gateway serves itself (identity); the contracts decide which those are. */
export type LocalHandlers = { [K in ProceduresOf<"gateway">]: LocalHandler<K> };

export function requireActor(actor: Actor | null): Actor {
  if (!actor) throw new Error("route declared as authenticated reached a handler without an actor");
  return actor;
}
