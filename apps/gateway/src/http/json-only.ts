import { AppError } from "@hearth/contracts";
import type { RequestHandler } from "express";

/**
 * The API speaks JSON only: a request that carries a body of any other media type is refused
 * with 415 instead of being read as an empty body. An empty body (a bodiless POST such as
 * logout) needs no Content-Type.
 */
export const jsonOnly: RequestHandler = (req, _res, next) => {
  const empty = req.headers["transfer-encoding"] === undefined && Number(req.headers["content-length"] ?? 0) === 0;
  if (!empty && req.is(["application/json", "application/*+json"]) === false) {
    next(new AppError("unsupported_media_type", { message: `Content-Type must be application/json, got ${req.headers["content-type"] ?? "none"}` }));
    return;
  }
  next();
};
