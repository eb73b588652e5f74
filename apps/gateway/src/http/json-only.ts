import { AppError } from "@hearth/contracts";
import type { Request, RequestHandler } from "express";

/** No body at all: neither chunked nor of any length (a bodiless POST such as logout). */
export function hasEmptyBody(req: Request): boolean {
  return req.headers["transfer-encoding"] === undefined && Number(req.headers["content-length"] ?? 0) === 0;
}

/** A multipart/form-data body: what a CSV upload route takes. */
export function isMultipart(req: Request): boolean {
  return !hasEmptyBody(req) && typeof req.is("multipart/form-data") === "string";
}

/**
 * The API speaks JSON only: a request that carries a body of any other media type is refused
 * with 415 instead of being read as an empty body. An empty body needs no Content-Type. The
 * one exception is a multipart body sent to a route that takes a CSV upload (`takesUpload`).
 */
export function jsonOnly(takesUpload: (req: Request) => boolean): RequestHandler {
  return (req, _res, next) => {
    if (!hasEmptyBody(req) && req.is(["application/json", "application/*+json"]) === false && !(isMultipart(req) && takesUpload(req))) {
      next(new AppError("unsupported_media_type", { message: `Content-Type must be application/json, got ${req.headers["content-type"] ?? "none"}` }));
      return;
    }
    next();
  };
}
