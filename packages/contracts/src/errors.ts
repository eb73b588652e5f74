import { z } from "zod";

/**
 * The one error catalogue. Every failure anywhere in Hearth becomes one of these codes;
 * the gateway turns it into the HTTP status and the public `error` string that Sure's
 * clients already understand.
 */
export const ERROR_CATALOGUE = {
  bad_request: { status: 400, message: "The request could not be understood" },
  unauthorized: { status: 401, message: "Access token is invalid, expired, or missing" },
  /** Sure's answer to a bad one-time SSO exchange code. */
  invalid_or_expired_code: { status: 401, message: "Authorization code is invalid or expired" },
  insufficient_scope: { status: 403, message: "This action requires the 'read_write' scope" },
  forbidden: { status: 403, message: "You are not allowed to perform this action" },
  feature_disabled: { status: 403, message: "AI features are not enabled for this user" },
  record_not_found: { status: 404, message: "The requested resource was not found" },
  not_found: { status: 404, message: "No such route" },
  conflict: { status: 409, message: "The request conflicts with the current state" },
  payload_too_large: { status: 413, message: "The request body is too large" },
  unsupported_media_type: { status: 415, message: "Request bodies must be JSON" },
  validation_failed: { status: 422, message: "Validation failed" },
  /** Sure's categories controller names its validation failures so (see RouteDef.sureErrors). */
  unprocessable_entity: { status: 422, message: "The record could not be saved" },
  // Sure's CSV uploads (POST /api/v1/merchants with a multipart `file`): each its own 422.
  missing_file: { status: 422, message: "Please provide a CSV file." },
  file_too_large: { status: 422, message: "File is too large." },
  invalid_file_type: { status: 422, message: "Invalid file type. Please upload a CSV file." },
  invalid_csv: { status: 422, message: "CSV could not be parsed" },
  missing_column: { status: 422, message: "CSV lacks a required column." },
  // Sure's imports and family exports (app/controllers/api/v1/imports_controller.rb, family_exports_controller.rb).
  content_too_large: { status: 422, message: "Content is too large." },
  missing_content: { status: 422, message: "Please provide a file or raw_file_content." },
  invalid_import_type: { status: 422, message: "The import type is not one preflight checks." },
  invalid_ndjson: { status: 422, message: "The content is not valid NDJSON." },
  max_row_count_exceeded: { status: 422, message: "The import has too many rows." },
  preflight_failed: { status: 422, message: "The import could not be checked." },
  not_publishable: { status: 422, message: "Import is not ready to publish." },
  publish_failed: { status: 422, message: "The import could not be published." },
  invalid_params: { status: 422, message: "Family export creation does not accept request parameters" },
  export_not_ready: { status: 409, message: "Export is not ready for download" },
  import_session_conflict: { status: 409, message: "The import session conflicts with what it holds" },
  rate_limit_exceeded: { status: 429, message: "Rate limit exceeded" },
  internal_server_error: { status: 500, message: "An unexpected error occurred" },
  service_unavailable: { status: 503, message: "A service is temporarily unavailable" },
} as const satisfies Record<string, { status: number; message: string }>;

export type ErrorCode = keyof typeof ERROR_CATALOGUE;
export const ErrorCodeSchema = z.enum(Object.keys(ERROR_CATALOGUE) as [ErrorCode, ...ErrorCode[]]);

export const ErrorBodySchema = z.object({
  error: z.string(),
  message: z.string().nullable().optional(),
  details: z
    .union([z.array(z.string()), z.record(z.string(), z.unknown())])
    .nullable()
    .optional(),
  errors: z.array(z.string()).nullable().optional(),
  /** Only on a login that needs the second factor (Sure's MfaRequiredResponse). */
  mfa_required: z.boolean().optional(),
  /** The import a failure is about, when it was stored before the failure (Sure's ErrorResponseWithImportId). */
  import_id: z.string().optional(),
  /** The catalogue code, where `error` carries Sure's sentence instead (AppErrorOptions.sentenceInError). */
  code: z.string().optional(),
});
export type ErrorBody = z.infer<typeof ErrorBodySchema>;

export const MfaRequiredBodySchema = z.object({ error: z.string(), mfa_required: z.boolean() });

export interface AppErrorOptions {
  message?: string;
  details?: ErrorBody["details"];
  errors?: string[];
  /** A login that needs the second factor: the body carries `mfa_required: true`. */
  mfaRequired?: boolean;
  /** The import the failure is about (Sure's ErrorResponseWithImportId). */
  importId?: string;
  /**
   * The body's `error` is the message itself, as some of Sure's controllers answer (`{ "error":
   * "Chat not found" }`; its auth controller, whose mobile app shows `error`); the catalogue code
   * moves to `code`, and `message` stays, so clients of the spec's body keep working.
   */
  sentenceInError?: boolean;
  cause?: unknown;
}

/** The single domain error type: code from the catalogue plus what the client may see. */
export class AppError extends Error {
  readonly code: ErrorCode;
  readonly details: ErrorBody["details"];
  readonly errors: string[] | undefined;
  readonly mfaRequired: boolean;
  readonly importId: string | undefined;
  readonly sentenceInError: boolean;

  constructor(code: ErrorCode, options: AppErrorOptions = {}) {
    super(options.message ?? ERROR_CATALOGUE[code].message, { cause: options.cause });
    this.name = "AppError";
    this.code = code;
    this.details = options.details;
    this.errors = options.errors;
    this.mfaRequired = options.mfaRequired ?? false;
    this.importId = options.importId;
    this.sentenceInError = options.sentenceInError ?? false;
  }

  get status(): number {
    return ERROR_CATALOGUE[this.code].status;
  }

  toBody(): ErrorBody {
    const body: ErrorBody = this.sentenceInError
      ? { error: this.message, code: this.code, message: this.message }
      : { error: this.code, message: this.message };
    if (this.details !== undefined) body.details = this.details;
    if (this.errors !== undefined) body.errors = this.errors;
    if (this.mfaRequired) body.mfa_required = true;
    if (this.importId !== undefined) body.import_id = this.importId;
    return body;
  }

  static notFound(what = "Record"): AppError {
    return new AppError("record_not_found", { message: `${what} not found` });
  }

  static validation(errors: string[]): AppError {
    return new AppError("validation_failed", { message: errors.join(", "), errors });
  }

  /** Sure's uniqueness answer: `taken("Name")` is 422 "Name has already been taken". */
  static taken(field: string): AppError {
    return AppError.validation([`${field} has already been taken`]);
  }
}

/** Carries an AppError across the tRPC hop (serialised into the error shape's data). */
export const WireAppErrorSchema = z.object({
  code: ErrorCodeSchema,
  message: z.string(),
  details: ErrorBodySchema.shape.details,
  errors: ErrorBodySchema.shape.errors,
  importId: z.string().nullable().optional(),
});
export type WireAppError = z.infer<typeof WireAppErrorSchema>;
