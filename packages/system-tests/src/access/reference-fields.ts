import { z } from "zod";

/** A field of a query or body that may name a record by id, e.g. `transaction.tag_ids`. */
export interface ReferenceField {
  /** Dotted path from the top of the query or body (`transaction.account_id`). */
  path: string;
  /** The last segment (`account_id`). */
  name: string;
  /** A list of ids (`tag_ids`) rather than one. */
  list: boolean;
}

interface JsonSchemaNode {
  type?: string | string[];
  properties?: Record<string, JsonSchemaNode>;
  items?: JsonSchemaNode;
  anyOf?: JsonSchemaNode[];
  oneOf?: JsonSchemaNode[];
  allOf?: JsonSchemaNode[];
}

/** Names that look like a reference: `*_id`, `*_ids`, and the audit log's `userId`. */
const REFERENCE_NAME = /(_ids?|Id)$/;

function walk(node: JsonSchemaNode | undefined, prefix: string, found: Map<string, ReferenceField>): void {
  if (!node) return;
  for (const [name, child] of Object.entries(node.properties ?? {})) {
    const path = prefix ? `${prefix}.${name}` : name;
    if (REFERENCE_NAME.test(name)) found.set(path, { path, name, list: isList(child) });
    walk(child, path, found);
  }
  for (const branch of [...(node.anyOf ?? []), ...(node.oneOf ?? []), ...(node.allOf ?? [])]) walk(branch, prefix, found);
}

function isList(node: JsonSchemaNode): boolean {
  if (node.type === "array" || (Array.isArray(node.type) && node.type.includes("array"))) return true;
  return [...(node.anyOf ?? []), ...(node.oneOf ?? [])].some(isList);
}

/** Every field of a route's query or body schema whose name says it holds an id (arrays of objects are not entered). */
export function referenceFieldsOf(schema: z.ZodType | undefined): ReferenceField[] {
  if (!schema) return [];
  const found = new Map<string, ReferenceField>();
  walk(z.toJSONSchema(schema, { io: "input", unrepresentable: "any" }) as JsonSchemaNode, "", found);
  return [...found.values()];
}

/** A copy of `value` with the field at the dotted `path` set to `replacement`. */
export function withField(value: unknown, path: string, replacement: unknown): unknown {
  const [head = "", ...rest] = path.split(".");
  const object = value !== null && typeof value === "object" ? (value as Record<string, unknown>) : {};
  return { ...object, [head]: rest.length ? withField(object[head], rest.join("."), replacement) : replacement };
}
