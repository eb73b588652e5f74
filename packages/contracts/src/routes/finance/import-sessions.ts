import { defineResourceRoutes } from "../define-resource-routes";
import { IdParams, READ, WRITE } from "../../route-access";
import {
  ImportSessionChunkBodySchema,
  ImportSessionCreateBodySchema,
  ImportSessionPublishBodySchema,
  ImportSessionResponseSchema,
} from "../../resources/import-sessions";
import { IMPORT_CSV_LIMITS, IMPORT_JSON_LIMIT_BYTES } from "../../resources/imports";

const NOT_FOUND = { notFound: "Import session not found" } as const;

export const importSessionsRoutes = defineResourceRoutes("finance", "importSessions", {
  create: {
    method: "POST",
    path: "/api/v1/import_sessions",
    summary: "Create (or, by client_session_id, find again) a SureImport upload in ordered chunks",
    tag: "Import Sessions",
    body: ImportSessionCreateBodySchema,
    response: ImportSessionResponseSchema,
    status: 201,
    access: WRITE,
  },
  get: {
    method: "GET",
    path: "/api/v1/import_sessions/:id",
    summary: "Show an import session with its chunks and, while it publishes, its progress",
    tag: "Import Sessions",
    params: IdParams,
    response: ImportSessionResponseSchema,
    status: 200,
    access: READ,
    sureErrors: NOT_FOUND,
  },
  addChunk: {
    method: "POST",
    path: "/api/v1/import_sessions/:id/chunks",
    summary: "Attach an ordered Sure NDJSON chunk (up to 10 MB); the same chunk sent again is a no-op, other content for it 409",
    tag: "Import Sessions",
    params: IdParams,
    body: ImportSessionChunkBodySchema,
    response: ImportSessionResponseSchema,
    status: 201,
    access: WRITE,
    sureErrors: NOT_FOUND,
    fileUpload: {
      field: "file",
      contentField: "raw_file_content",
      maxBytes: IMPORT_CSV_LIMITS.maxBytes,
      mediaTypes: ["application/x-ndjson", "application/ndjson", "application/json", "text/plain"],
      extensions: [".ndjson", ".json"],
      jsonLimitBytes: IMPORT_JSON_LIMIT_BYTES,
    },
  },
  publish: {
    method: "POST",
    path: "/api/v1/import_sessions/:id/publish",
    summary: "Publish every chunk in sequence as one import, in the background (409 until every chunk is there)",
    tag: "Import Sessions",
    params: IdParams,
    body: ImportSessionPublishBodySchema,
    response: ImportSessionResponseSchema,
    status: 202,
    access: WRITE,
    sureErrors: NOT_FOUND,
  },
});
