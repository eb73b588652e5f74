import { z } from "zod";
import { AppError, withStorableText, type RouteDef } from "@hearth/contracts";
import { messagesOf } from "@hearth/service-kit";
import type { Request } from "express";
import { foldQuery, unknownParameters } from "./query-params";

/**
 * A body without the object a Rails controller `params.require`s (absent, null, blank or `{}`):
 * Sure answers 400 there, before any validation.
 */
function lacksRequiredObject(schema: z.ZodType, body: unknown): boolean {
  if (!(schema instanceof z.ZodObject)) return false;
  if (body === null || typeof body !== "object" || Array.isArray(body)) return true;
  return Object.entries(schema.shape as Record<string, z.ZodType>).some(([key, field]) => {
    if (field.safeParse(undefined).success) return false;
    const value = (body as Record<string, unknown>)[key];
    return value === undefined || value === null || value === "" || (typeof value === "object" && !Array.isArray(value) && Object.keys(value).length === 0);
  });
}

/** The query as the route reads it: lists in either spelling, unknown filters and bad values refused with 422. */
function parseQuery(route: RouteDef, req: Request): Record<string, unknown> {
  const query = foldQuery(req.query as Record<string, unknown>);
  const errors = unknownParameters(route, query).map((name) => `${name} is not a parameter of this endpoint`);
  let data: Record<string, unknown> = {};
  if (route.query) {
    const parsed = withStorableText(route.query).safeParse(query.values);
    if (parsed.success) data = parsed.data as Record<string, unknown>;
    else errors.push(...messagesOf(parsed.error));
  }
  if (errors.length > 0) throw AppError.validation(errors);
  return data;
}

/**
 * Validates a request against its route: a malformed path id cannot name a record (404); bad or
 * unknown query parameters are 422, as Sure answers a bad filter; an invalid body is 422 with
 * every message in `errors`. Text PostgreSQL cannot store (NUL, unpaired surrogates) is refused
 * here for every route at once. Returns path parameters, query and body merged, as the owning
 * procedure takes them (a CSV upload's body comes from readCsvUpload instead).
 */
export function parseRouteInput(route: RouteDef, req: Request, uploaded?: unknown): Record<string, unknown> {
  const merged: Record<string, unknown> = {};
  if (route.params) {
    // A path segment PostgreSQL cannot store (NUL) names no record either.
    const params = withStorableText(route.params).safeParse(req.params);
    if (!params.success) throw AppError.notFound("Record");
    Object.assign(merged, params.data);
  }
  Object.assign(merged, parseQuery(route, req));
  if (route.body) {
    const raw = uploaded ?? req.body ?? {};
    if (route.sureErrors?.requireBody && lacksRequiredObject(route.body, raw)) {
      throw new AppError("bad_request", { message: "Required parameters are missing or invalid" });
    }
    const body = withStorableText(route.body).safeParse(raw);
    if (!body.success) throw AppError.validation(messagesOf(body.error));
    Object.assign(merged, body.data);
  }
  return merged;
}
