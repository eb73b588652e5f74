import fc from "fast-check";

/** The part of JSON Schema (as zod's toJSONSchema writes a route's input) the generator reads. */
export interface JsonSchema {
  type?: string | string[];
  properties?: Record<string, JsonSchema>;
  required?: string[];
  items?: JsonSchema;
  anyOf?: JsonSchema[];
  enum?: unknown[];
  const?: unknown;
  pattern?: string;
  format?: string;
  minLength?: number;
  maxLength?: number;
  minItems?: number;
  maxItems?: number;
  minimum?: number;
  maximum?: number;
}

/**
 * Values a field of this name should often take so that generated requests get past validation
 * and reach the services: ids of records that exist, amounts, currencies. Keyed by the field name.
 */
export type FieldHints = (field: string) => fc.Arbitrary<unknown> | undefined;

const ABSENT = Symbol("absent");

/** Dates mostly inside the ledger's range, so creates succeed; the mutations bring the bad ones. */
const realisticDate = fc
  .date({ min: new Date("1971-01-01T00:00:00Z"), max: new Date("2098-12-31T00:00:00Z"), noInvalidDate: true })
  .map((d) => d.toISOString().slice(0, 10));
const realisticTimestamp = fc
  .date({ min: new Date("2000-01-01T00:00:00Z"), max: new Date("2090-01-01T00:00:00Z"), noInvalidDate: true })
  .map((d) => d.toISOString());
/** URLs that fail fast: nothing listens on port 9 of this machine, so an OIDC discovery is refused at once. */
const unreachableUrl = fc.webPath().map((path) => `http://127.0.0.1:9${path}`);

function stringOf(schema: JsonSchema): fc.Arbitrary<string> {
  const minLength = schema.minLength ?? 0;
  // Long strings come from the mutations; generated ones stay short so runs stay fast.
  const maxLength = Math.max(minLength, Math.min(schema.maxLength ?? 40, 40));
  if (schema.format === "uuid") return fc.uuid({ version: 7 });
  if (schema.format === "date")
    return fc.oneof(
      { weight: 4, arbitrary: realisticDate },
      { weight: 1, arbitrary: fc.stringMatching(new RegExp(schema.pattern ?? "^\\d{4}-\\d{2}-\\d{2}$")) },
    );
  if (schema.format === "date-time") return realisticTimestamp;
  if (schema.format === "uri") return unreachableUrl;
  if (schema.format === "email") return fc.emailAddress();
  if (schema.pattern) return fc.stringMatching(new RegExp(schema.pattern)).filter((text) => text.length <= (schema.maxLength ?? Infinity));
  return fc.string({
    minLength,
    maxLength,
    unit: fc.oneof(
      { weight: 5, arbitrary: fc.constantFrom(..."abcdefghij klmnop-_.@0123") },
      { weight: 1, arbitrary: fc.string({ unit: "grapheme", minLength: 1, maxLength: 1 }) },
    ),
  });
}

function numberOf(schema: JsonSchema, integer: boolean): fc.Arbitrary<number> {
  if (integer) return fc.integer({ min: schema.minimum ?? -1_000_000, max: schema.maximum ?? 1_000_000 });
  return fc.double({ min: schema.minimum ?? -1e6, max: schema.maximum ?? 1e6, noNaN: true, noDefaultInfinity: true });
}

/** An arbitrary of values of the schema, by `field` name first when `hints` knows the field. */
export function arbitraryOf(schema: JsonSchema, hints: FieldHints, field = ""): fc.Arbitrary<unknown> {
  const hinted = field ? hints(field) : undefined;
  const plain = plainArbitraryOf(schema, hints);
  return hinted ? fc.oneof({ weight: 3, arbitrary: hinted }, { weight: 1, arbitrary: plain }) : plain;
}

function plainArbitraryOf(schema: JsonSchema, hints: FieldHints): fc.Arbitrary<unknown> {
  if (schema.const !== undefined) return fc.constant(schema.const);
  if (schema.enum) return fc.constantFrom(...schema.enum);
  if (schema.anyOf) return fc.oneof(...schema.anyOf.map((option) => plainArbitraryOf(option, hints)));
  if (Array.isArray(schema.type)) return fc.oneof(...schema.type.map((type) => plainArbitraryOf({ ...schema, type }, hints)));
  switch (schema.type) {
    case "object": {
      // Optional fields appear one time in three: each one more is one more chance to be refused
      // for itself (a password needs current_password) before the mutated field is looked at.
      const required = new Set(schema.required ?? []);
      const model = Object.fromEntries(
        Object.entries(schema.properties ?? {}).map(([name, property]) => {
          const value = arbitraryOf(property, hints, name);
          return [name, required.has(name) ? value : fc.oneof({ weight: 2, arbitrary: fc.constant(ABSENT) }, { weight: 1, arbitrary: value })];
        }),
      );
      return fc.record(model).map((record) => Object.fromEntries(Object.entries(record).filter(([, value]) => value !== ABSENT)));
    }
    case "array": {
      const minLength = schema.minItems ?? 0;
      return fc.array(schema.items ? plainArbitraryOf(schema.items, hints) : fc.jsonValue(), {
        minLength,
        maxLength: Math.max(minLength, Math.min(schema.maxItems ?? 4, 4)),
      });
    }
    case "string":
      return stringOf(schema);
    case "integer":
      return numberOf(schema, true);
    case "number":
      return numberOf(schema, false);
    case "boolean":
      return fc.boolean();
    case "null":
      return fc.constant(null);
    default:
      return fc.jsonValue({ maxDepth: 2 });
  }
}
