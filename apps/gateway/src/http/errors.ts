import { AppError } from "@hearth/contracts";
import type { Logger } from "@hearth/service-kit";
import type { ErrorRequestHandler, RequestHandler } from "express";

/** Unknown routes answer the error body too. */
export const notFound: RequestHandler = (req, _res, next) => {
  next(new AppError("not_found", { message: `No route matches ${req.method} ${req.path}` }));
};

/** Express/body-parser failures that are the client's fault, by their `type`. */
function fromBodyParser(err: unknown): AppError | null {
  const type = (err as { type?: unknown } | null)?.type;
  if (type === "entity.parse.failed") return new AppError("bad_request", { message: "Malformed JSON in request body" });
  if (type === "entity.too.large") return new AppError("payload_too_large");
  if (type === "encoding.unsupported" || type === "charset.unsupported") return new AppError("unsupported_media_type");
  return null;
}

/** Every failure becomes the spec's error body with its status; no stack trace ever leaves. */
export function errorHandler(log: Logger): ErrorRequestHandler {
  return (err: unknown, _req, res, _next) => {
    const appError = err instanceof AppError ? err : (fromBodyParser(err) ?? new AppError("internal_server_error", { cause: err }));
    if (appError.status >= 500) {
      (res.locals["log"] as Logger | undefined ?? log).error({ err: appError.cause ?? appError, code: appError.code }, "request failed");
    }
    res.status(appError.status).json(appError.toBody());
  };
}
