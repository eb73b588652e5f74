import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import Ajv, { type ErrorObject, type ValidateFunction } from "ajv";
import addFormats from "ajv-formats";
import { parse } from "yaml";

/** Sure's public OpenAPI file, copied into the repo because CI clones have no /work/shared. */
export const SURE_OPENAPI_FILE = fileURLToPath(new URL("../fixtures/sure-api-v1.openapi.yaml", import.meta.url));

/** The id the components are registered under, so every `#/components/...` reference resolves. */
const DOCUMENT_ID = "sure-api-v1";

type HttpMethod = "get" | "post" | "put" | "patch" | "delete";

interface OpenApiDocument {
  paths: Record<string, Partial<Record<HttpMethod, { responses?: Record<string, { content?: Record<string, { schema?: unknown }> }> }>>>;
  components: { schemas: Record<string, unknown> };
}

/**
 * OpenAPI 3.0 schema -> JSON Schema (draft-07) for Ajv. `nullable` is rewritten here rather than
 * left to Ajv's own support because Ajv refuses `nullable` without a sibling `type`, and Sure's
 * file puts it beside `$ref`, `allOf` and `oneOf` (where OpenAPI 3.0 means "this, or null").
 */
function toJsonSchema(node: unknown): unknown {
  if (Array.isArray(node)) return node.map(toJsonSchema);
  if (node === null || typeof node !== "object") return node;
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(node)) {
    if (key === "nullable") continue;
    if (key === "$ref" && typeof value === "string" && value.startsWith("#/")) out[key] = `${DOCUMENT_ID}${value}`;
    // `properties` maps names to schemas: a property may itself be called "nullable" or "$ref".
    else if (key === "properties" && value && typeof value === "object") {
      out[key] = Object.fromEntries(Object.entries(value).map(([name, schema]) => [name, toJsonSchema(schema)]));
    } else out[key] = toJsonSchema(value);
  }
  if ((node as { nullable?: unknown }).nullable !== true) return out;
  if (typeof out.type === "string") return { ...out, type: [out.type, "null"] };
  return { anyOf: [out, { type: "null" }] };
}

function loadDocument(): OpenApiDocument {
  return parse(readFileSync(SURE_OPENAPI_FILE, "utf8")) as OpenApiDocument;
}

let cached: { document: OpenApiDocument; ajv: Ajv; validators: Map<string, ValidateFunction> } | undefined;

function state() {
  if (cached) return cached;
  const document = loadDocument();
  // strict: false lets OpenAPI-only keywords (example, discriminator, ...) pass as annotations.
  const ajv = new Ajv({ allErrors: true, strict: false });
  addFormats(ajv);
  // OpenAPI's numeric and binary formats carry no constraint JSON Schema could check.
  for (const format of ["float", "double", "int32", "int64", "binary", "byte", "password"]) ajv.addFormat(format, true);
  ajv.addSchema({ $id: DOCUMENT_ID, components: { schemas: toJsonSchema(document.components.schemas) } });
  cached = { document, ajv, validators: new Map() };
  return cached;
}

function validatorFor(key: string, schema: () => unknown): ValidateFunction {
  const { ajv, validators } = state();
  let validate = validators.get(key);
  if (!validate) {
    validate = ajv.compile(toJsonSchema(schema()) as object);
    validators.set(key, validate);
  }
  return validate;
}

function describeErrors(errors: ErrorObject[] | null | undefined): string {
  return (errors ?? [])
    .map((error) => {
      const where = error.instancePath || "(body)";
      const params = Object.keys(error.params).length ? ` ${JSON.stringify(error.params)}` : "";
      return `  - ${where} ${error.message ?? error.keyword}${params} [schema ${error.schemaPath}]`;
    })
    .join("\n");
}

function assertValid(what: string, validate: ValidateFunction, body: unknown): void {
  if (validate(body)) return;
  const shown = JSON.stringify(body, null, 2) ?? String(body);
  throw new Error(`${what}: the body does not match Sure's schema:\n${describeErrors(validate.errors)}\nbody: ${shown.slice(0, 4000)}`);
}

/** The JSON schema Sure's file documents for `method path status`, or an error naming what it does document. */
function responseSchemaOf(method: HttpMethod, path: string, status: number): unknown {
  const { document } = state();
  const operation = document.paths[path]?.[method];
  if (!operation) throw new Error(`Sure's OpenAPI file documents no ${method.toUpperCase()} ${path}`);
  const response = operation.responses?.[String(status)];
  if (!response) {
    const documented = Object.keys(operation.responses ?? {}).join(", ");
    throw new Error(`Sure's OpenAPI file documents no ${status} for ${method.toUpperCase()} ${path} (documented: ${documented})`);
  }
  const schema = response.content?.["application/json"]?.schema;
  if (schema === undefined) throw new Error(`Sure's OpenAPI file documents no JSON body for ${status} of ${method.toUpperCase()} ${path}`);
  return schema;
}

/**
 * Asserts that `body` is what Sure's file documents for this response, e.g.
 * `expectSureResponse("get", "/api/v1/accounts/{id}", 200, res.body)`. The path is the file's
 * template, not the concrete URL. Fails when the file documents no such response.
 */
export function expectSureResponse(method: string, path: string, status: number, body: unknown): void {
  const verb = method.toLowerCase() as HttpMethod;
  const schema = responseSchemaOf(verb, path, status);
  const validate = validatorFor(`${verb} ${path} ${status}`, () => schema);
  assertValid(`${verb.toUpperCase()} ${path} ${status}`, validate, body);
}

/** Asserts that `body` matches one of the file's component schemas, e.g. `expectSureSchema("AccountDetail", body)`. */
export function expectSureSchema(name: string, body: unknown): void {
  if (!(name in state().document.components.schemas)) throw new Error(`Sure's OpenAPI file has no component schema ${name}`);
  const validate = validatorFor(`#${name}`, () => ({ $ref: `#/components/schemas/${name}` }));
  assertValid(`components.schemas.${name}`, validate, body);
}
