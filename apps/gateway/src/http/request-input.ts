import { AppError, withStorableText, type RouteDef } from "@hearth/contracts";
import { messagesOf } from "@hearth/service-kit";
import type { Request } from "express";

/**
 * Validates a request against its route: a malformed path id cannot name a record (404),
 * bad query parameters are 400, an invalid body is 422 with every message in `errors`. Text
 * PostgreSQL cannot store (NUL, unpaired surrogates) is refused here for every route at once.
 * Returns path parameters, query and body merged, as the owning procedure takes them.
 */
export function parseRouteInput(route: RouteDef, req: Request): Record<string, unknown> {
  const merged: Record<string, unknown> = {};
  if (route.params) {
    const params = route.params.safeParse(req.params);
    if (!params.success) throw AppError.notFound("Record");
    Object.assign(merged, params.data);
  }
  if (route.query) {
    const query = withStorableText(route.query).safeParse(req.query);
    if (!query.success) {
      const errors = messagesOf(query.error);
      throw new AppError("bad_request", { message: errors.join(", "), errors });
    }
    Object.assign(merged, query.data);
  }
  if (route.body) {
    const body = withStorableText(route.body).safeParse(req.body ?? {});
    if (!body.success) throw AppError.validation(messagesOf(body.error));
    Object.assign(merged, body.data);
  }
  return merged;
}
