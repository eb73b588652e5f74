import { AppError, type RouteDef } from "@hearth/contracts";

/**
 * A failure as the route's Sure controller names it (RouteDef.sureErrors): the same status, the
 * code its tests assert. Applies to every failure of the route, the gateway's checks and the service's.
 */
export function sureNamed(route: RouteDef, err: unknown): unknown {
  const names = route.sureErrors;
  if (!names || !(err instanceof AppError)) return err;
  const sentenceInError = names.sentenceInError ?? false;
  if (names.notFound && err.code === "record_not_found") return new AppError("not_found", { message: names.notFound, sentenceInError, cause: err });
  if (sentenceInError && err.code === "unprocessable_entity") return new AppError(err.code, { message: err.message, sentenceInError, cause: err });
  if (names.validationInError && err.code === "validation_failed") {
    return new AppError(err.code, { message: err.message, errors: err.errors ?? [err.message], details: err.details, sentenceInError: true, cause: err });
  }
  if (names.invalid === "invalid_params" && err.code === "validation_failed") return new AppError("invalid_params", { cause: err });
  if (names.invalid && err.code === "validation_failed") {
    return new AppError(names.invalid, { message: err.message, errors: err.errors, details: err.details, cause: err });
  }
  return err;
}
