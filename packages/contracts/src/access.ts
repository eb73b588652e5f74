import type { Actor } from "./context";
import { AppError } from "./errors";
import type { RouteAccess } from "./route";

/**
 * Checks a route's declared access against the acting user. The gateway runs it on every
 * request, and each service runs it again on every procedure (a replayed or misrouted internal
 * call gets no further than the gateway would have let it).
 */
export function authorize(actor: Actor, access: RouteAccess): void {
  if (access.auth === "bearer" && actor.authMethod !== "bearer") {
    throw new AppError("forbidden", { message: "This endpoint requires a bearer token" });
  }
  if (access.scope === "read_write" && !actor.scopes.includes("read_write")) {
    throw new AppError("insufficient_scope");
  }
  if (access.role === "admin" && actor.role !== "admin") {
    throw new AppError("forbidden", { message: "This action requires the admin role" });
  }
}
