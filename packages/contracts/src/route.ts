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
  /** A route of the AI assistant: answered only for a user who turned AI on, in a family that has it on (403 `feature_disabled`, as Sure's require_ai_enabled). */
  ai?: true;
}

/**
 * Where Sure's controller for a route names a failure otherwise than the catalogue's default
 * (its controller tests assert these names); the gateway answers them so.
 */
export interface SureErrorNames {
  /** A missing record, or a path id that cannot name one, is 404 `not_found` with this message (e.g. "Account not found"), not `record_not_found`. */
  notFound?: string;
  /**
   * Validation failures are 422 `unprocessable_entity` (Sure's categories) or `invalid_params`
   * with the catalogue's message (Sure's family exports, which take no parameters), not `validation_failed`.
   */
  invalid?: "unprocessable_entity" | "invalid_params";
  /** A body without its top-level object, or with it empty, is 400 `bad_request`, as Rails' `params.require` answers. */
  requireBody?: true;
  /**
   * Sure's controller puts its sentence in `error` itself (chats and messages: `{ "error": "Chat not
   * found" }`, `{ "error": "No assistant message to retry" }`): a 404 or 422 `unprocessable_entity`
   * of the route carries its message as `error` (the code in `code`, see AppErrorOptions.sentenceInError).
   */
  sentenceInError?: true;
  /**
   * A refused body is 422 with its sentences joined in `error` and listed in `errors` (code
   * `validation_failed` in `code`): Sure's auth controller answers `{"errors": [...]}` and its
   * mobile app shows `error` first (auth_service.dart 18-23), so `error` must be the sentence.
   */
  validationInError?: true;
}

/**
 * A route whose request is a CSV file sent as multipart/form-data (Sure's imports). The gateway
 * reads the file and hands the procedure `{ rows }`: one object per data row, keyed by `columns`.
 */
export interface CsvUpload {
  /** The form field that carries the file. */
  field: string;
  /** Each key the procedure reads, with the header names meaning it (compared as Sure normalises headers). */
  columns: Record<string, readonly string[]>;
  /** The keys whose column a file must have. */
  required: readonly string[];
  maxBytes: number;
  maxRows: number;
}

/**
 * A route that takes a whole file as text (Sure's imports): a multipart body's file in `field`
 * becomes the body's `contentField` (its text), its other form fields the rest of the body.
 * A JSON body carries the text in `contentField` itself, up to `jsonLimitBytes`.
 */
export interface FileUpload {
  field: string;
  contentField: string;
  /** A larger file is 422 `file_too_large` with Sure's message. */
  maxBytes: number;
  /** The media types taken (else 422 `invalid_file_type`); file names ending in one of `extensions` are taken whatever their type. */
  mediaTypes: readonly string[];
  extensions: readonly string[];
  /** The JSON body limit of this route (the gateway's default is BODY_LIMIT). */
  jsonLimitBytes: number;
  /**
   * The file may be in any of TEXT_ENCODINGS, named by the form's `encoding` field or found by
   * the gateway, which sets `encoding` to the one it read; without this, only UTF-8 is taken.
   */
  encodings?: boolean;
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
  sureErrors?: SureErrorNames;
  /** Set on a route that takes a CSV upload; its `body` then validates the rows read from the file. */
  upload?: CsvUpload;
  /** Set on a route that takes a whole file as text (multipart or JSON). */
  fileUpload?: FileUpload;
}

/** The methods a route answers: Rails routes PUT like PATCH, so every PATCH route takes PUT too. */
export function methodsOf(route: Pick<RouteDef, "method">): HttpMethod[] {
  return route.method === "PATCH" ? ["PATCH", "PUT"] : [route.method];
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
