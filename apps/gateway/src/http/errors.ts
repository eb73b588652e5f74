import { AppError } from "@hearth/contracts";
import { isDatabaseUnavailable, type Logger } from "@hearth/service-kit";
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
  // Anything else express or body-parser marks as the client's fault (a bad percent-encoding in
  // the path, a body that does not inflate) is a 400, whatever it is.
  const { status } = (err ?? {}) as { status?: unknown };
  if (typeof status === "number" && status >= 400 && status < 500) return new AppError("bad_request", { message: "The request could not be read" });
  return null;
}

/** The identity database being down makes the gateway unavailable (503), not broken (500). */
function fromDatabase(err: unknown): AppError | null {
  return isDatabaseUnavailable(err) ? new AppError("service_unavailable", { message: "The identity database is unavailable", cause: err }) : null;
}

const SERVICE_UNAVAILABLE_RETRY_AFTER_SECONDS = 5;

/** Every failure becomes the spec's error body with its status; no stack trace ever leaves. */
export function errorHandler(log: Logger): ErrorRequestHandler {
  return (err: unknown, _req, res, _next) => {
    const appError = err instanceof AppError ? err : (fromBodyParser(err) ?? fromDatabase(err) ?? new AppError("internal_server_error", { cause: err }));
    if (appError.status >= 500) {
      ((res.locals["log"] as Logger | undefined) ?? log).error({ err: appError.cause ?? appError, code: appError.code }, "request failed");
    }
    // Every 429 says when to come back, whichever limit it comes from.
    const resetIn = (appError.details as { reset_in_seconds?: unknown } | undefined)?.reset_in_seconds;
    if (appError.code === "rate_limit_exceeded" && typeof resetIn === "number") res.set("Retry-After", String(resetIn));
    // A service or database that is down is usually back within seconds (npm start restarts a crashed service after 1 s).
    if (appError.code === "service_unavailable") res.set("Retry-After", String(SERVICE_UNAVAILABLE_RETRY_AFTER_SECONDS));
    res.status(appError.status).json(appError.toBody());
  };
}
