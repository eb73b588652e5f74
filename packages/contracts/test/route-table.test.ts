import { describe, expect, it } from "vitest";
import { buildOpenApiDocument, routes, type RouteDef } from "../src";

const table = Object.entries(routes) as [string, RouteDef][];

describe("the route table", () => {
  // Keys, procedures, owners and unique method + path: see route-layout.test.ts.
  it("makes every write need the read_write scope, except the public identity routes and checks that write nothing", () => {
    // Sure's imports#preflight takes read scope: it checks content and keeps nothing.
    const writesNothing = new Set(["imports.preflight"]);
    for (const [key, route] of table) {
      if (route.method === "GET" || route.access.auth === "public" || writesNothing.has(key)) continue;
      expect(route.access.scope, key).toBe("read_write");
    }
  });

  it("keeps the audit log to admins with a bearer token (spec section 5)", () => {
    expect(routes["auditLogs.list"].access).toEqual({ auth: "bearer", scope: "read", role: "admin" });
  });
});

describe("the OpenAPI document", () => {
  const doc = buildOpenApiDocument() as { openapi: string; paths: Record<string, Record<string, { responses: Record<string, unknown> }>> };

  it("lists PUT beside every PATCH, the same operation under its own id (Rails routes PUT like PATCH)", () => {
    const patches = table.filter(([, route]) => route.method === "PATCH");
    expect(patches.length).toBeGreaterThan(0);
    for (const [key, route] of patches) {
      const operations = doc.paths[route.path.replace(/:([A-Za-z_]+)/g, "{$1}")] as Record<string, Record<string, unknown>>;
      expect(operations["put"], key).toMatchObject({
        operationId: `${key}.put`,
        responses: operations["patch"]?.["responses"],
        parameters: operations["patch"]?.["parameters"],
      });
      expect(operations["put"]?.["requestBody"], key).toEqual(operations["patch"]?.["requestBody"]);
    }
  });

  it("describes POST /api/v1/merchants as a JSON create or a multipart CSV upload", () => {
    const post = doc.paths["/api/v1/merchants"]?.["post"] as unknown as Record<string, any>;
    expect(Object.keys(post["requestBody"].content).sort()).toEqual(["application/json", "multipart/form-data"]);
    expect(post["requestBody"].content["multipart/form-data"].schema).toMatchObject({
      required: ["file"],
      properties: { file: { type: "string", format: "binary" } },
    });
    expect(post["responses"]["201"].content["application/json"].schema.oneOf).toHaveLength(2);
    expect(post["x-hearth-procedures"]).toEqual(["merchants.create", "merchants.import"]);
  });

  it("documents list parameters as repeated keys that also take Rails' name[]", () => {
    const get = doc.paths["/api/v1/transactions"]?.["get"] as unknown as { parameters: Record<string, unknown>[] };
    expect(get.parameters.find((parameter) => parameter["name"] === "tag_ids")).toMatchObject({ style: "form", explode: true, schema: { type: "array" } });
  });

  it("is OpenAPI 3.1 with one operation per route and its success status", () => {
    expect(doc.openapi).toMatch(/^3\.1\./);
    for (const [key, route] of table) {
      const operation = doc.paths[route.path.replace(/:([A-Za-z_]+)/g, "{$1}")]?.[route.method.toLowerCase()];
      expect(operation, key).toBeDefined();
      expect(Object.keys(operation?.responses ?? {}), key).toContain(String(route.status));
    }
  });
});
