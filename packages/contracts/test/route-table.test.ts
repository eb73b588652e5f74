import { describe, expect, it } from "vitest";
import { buildOpenApiDocument, routes, type RouteDef } from "../src";

const table = Object.entries(routes) as [string, RouteDef][];

describe("the route table", () => {
  // Keys, procedures, owners and unique method + path: see route-layout.test.ts.
  it("makes every write need the read_write scope, except the public identity routes", () => {
    for (const [key, route] of table) {
      if (route.method === "GET" || route.access.auth === "public") continue;
      expect(route.access.scope, key).toBe("read_write");
    }
  });

  it("keeps the audit log to admins with a bearer token (spec section 5)", () => {
    expect(routes["auditLogs.list"].access).toEqual({ auth: "bearer", scope: "read", role: "admin" });
  });
});

describe("the OpenAPI document", () => {
  const doc = buildOpenApiDocument() as { openapi: string; paths: Record<string, Record<string, { responses: Record<string, unknown> }>> };

  it("is OpenAPI 3.1 with one operation per route and its success status", () => {
    expect(doc.openapi).toMatch(/^3\.1\./);
    for (const [key, route] of table) {
      const operation = doc.paths[route.path.replace(/:([A-Za-z_]+)/g, "{$1}")]?.[route.method.toLowerCase()];
      expect(operation, key).toBeDefined();
      expect(Object.keys(operation?.responses ?? {}), key).toContain(String(route.status));
    }
  });
});
