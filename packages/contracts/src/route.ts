import { z } from "zod";
import type { ServiceName } from "./context";
import type { Scope } from "./resources/api-keys";

export type HttpMethod = "GET" | "POST" | "PATCH" | "PUT" | "DELETE";
export type RouteOwner = ServiceName | "gateway";

/**
 * Who may call a route. `any`: API key or bearer token; `bearer`: bearer token only;
 * `public`: no credential (sign-up, login, refresh).
 */
export interface RouteAccess {
  auth: "public" | "any" | "bearer";
  scope?: Scope;
  role?: "admin";
}

type AnyObject = z.ZodObject<z.ZodRawShape>;

/** One public endpoint, declared once: routing, checks, the internal call and OpenAPI all derive from it. */
export interface RouteDef<
  P extends AnyObject | undefined = AnyObject | undefined,
  Q extends z.ZodType | undefined = z.ZodType | undefined,
  B extends z.ZodType | undefined = z.ZodType | undefined,
  R extends z.ZodType | null = z.ZodType | null,
  Own extends RouteOwner = RouteOwner,
> {
  method: HttpMethod;
  /** Express-style path, e.g. `/api/v1/tags/:id`. */
  path: string;
  summary: string;
  tag: string;
  owner: Own;
  /** Procedure name on the owning service, e.g. `tags.update`. */
  procedure: string;
  params?: P;
  query?: Q;
  body?: B;
  /** `null` for an empty answer (204). */
  response: R;
  status: number;
  /**
   * Set when one route answers with more than one success status (Sure's 201 created vs 200
   * replayed): the procedure then returns `{ status, body }` (see `answerWith`) and `status`
   * above is the main one.
   */
  statuses?: readonly number[];
  access: RouteAccess;
}

/** The response schema of a route with several success statuses: the procedure picks one. */
export function answerWith<S extends z.ZodType, const N extends readonly [number, ...number[]]>(body: S, statuses: N) {
  const [first, ...rest] = statuses.map((status) => z.literal(status));
  return z.object({ status: rest.length > 0 ? z.union([first!, ...rest]) : first!, body });
}

type InferOr<T, Fallback> = T extends z.ZodType ? z.output<T> : Fallback;
type EmptyObject = Record<never, never>;

/** What the owning procedure receives: path parameters, query and body merged into one object. */
export type RouteInput<R> =
  R extends RouteDef<infer P, infer Q, infer B, z.ZodType | null, RouteOwner>
    ? InferOr<P, EmptyObject> & InferOr<Q, EmptyObject> & InferOr<B, EmptyObject>
    : never;

/** What the owning procedure returns (before output validation). */
export type RouteOutput<R> =
  R extends RouteDef<AnyObject | undefined, z.ZodType | undefined, z.ZodType | undefined, infer O, RouteOwner>
    ? O extends z.ZodType
      ? z.input<O>
      : void
    : never;
