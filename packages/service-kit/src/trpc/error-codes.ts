import type { TRPC_ERROR_CODE_KEY } from "@trpc/server";
import type { ErrorCode } from "@hearth/contracts";

/** The one table from domain error codes to tRPC codes (HTTP statuses live in the contracts' catalogue). */
export const TRPC_CODE_OF: Record<ErrorCode, TRPC_ERROR_CODE_KEY> = {
  bad_request: "BAD_REQUEST",
  unauthorized: "UNAUTHORIZED",
  invalid_or_expired_code: "UNAUTHORIZED",
  insufficient_scope: "FORBIDDEN",
  forbidden: "FORBIDDEN",
  record_not_found: "NOT_FOUND",
  not_found: "NOT_FOUND",
  conflict: "CONFLICT",
  payload_too_large: "PAYLOAD_TOO_LARGE",
  unsupported_media_type: "UNSUPPORTED_MEDIA_TYPE",
  validation_failed: "UNPROCESSABLE_CONTENT",
  unprocessable_entity: "UNPROCESSABLE_CONTENT",
  missing_file: "UNPROCESSABLE_CONTENT",
  file_too_large: "UNPROCESSABLE_CONTENT",
  invalid_file_type: "UNPROCESSABLE_CONTENT",
  invalid_csv: "UNPROCESSABLE_CONTENT",
  missing_column: "UNPROCESSABLE_CONTENT",
  rate_limit_exceeded: "TOO_MANY_REQUESTS",
  internal_server_error: "INTERNAL_SERVER_ERROR",
  service_unavailable: "SERVICE_UNAVAILABLE",
};
