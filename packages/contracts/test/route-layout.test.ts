import { readdirSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { routes, type RouteDef, type RouteOwner } from "../src";

// The route table's layout is the answer to "where do I add an endpoint": routes/<owner>/<resource>.ts.
// These checks keep that answer true (see the comment at the top of src/routes/index.ts).

const OWNERS: RouteOwner[] = ["gateway", "finance", "chat", "notifications", "audit"];
const ROUTES_DIR = new URL("../src/routes/", import.meta.url);
const table = Object.entries(routes) as [string, RouteDef][];

type RouteRecord = Record<string, RouteDef>;
const camelOf = (kebab: string) => kebab.replace(/-([a-z])/g, (_, letter: string) => letter.toUpperCase());

async function routesIn(file: URL): Promise<RouteRecord> {
  const module = (await import(file.href)) as Record<string, RouteRecord>;
  return Object.assign({}, ...Object.values(module)) as RouteRecord;
}

/** Every resource file of every owner's folder, with the routes it declares. */
const resourceFiles = await Promise.all(
  OWNERS.flatMap((owner) => {
    const folder = new URL(`${owner}/`, ROUTES_DIR);
    return readdirSync(fileURLToPath(folder))
      .filter((name) => name.endsWith(".ts") && name !== "index.ts")
      .map(async (name) => ({ owner, resource: camelOf(name.slice(0, -3)), file: `${owner}/${name}`, declared: await routesIn(new URL(name, folder)) }));
  }),
);

describe("the route table's layout", () => {
  it("keys every route by the procedure that serves it", () => {
    for (const [key, route] of table) expect(route.procedure, key).toBe(key);
  });

  it("declares each method and path once, or twice when one takes a JSON body and the other a CSV upload", () => {
    const seen = table.map(([, route]) => `${route.method} ${route.path} ${route.upload ? "upload" : "json"}`);
    expect(new Set(seen).size).toBe(seen.length);
    for (const [key, route] of table.filter(([, r]) => r.upload)) {
      // jsonOnly and the mount order find an upload route by its literal path.
      expect(route.path, key).not.toContain(":");
    }
  });

  it("has one folder per owner and nothing else but the helper and the index", () => {
    const entries = readdirSync(fileURLToPath(ROUTES_DIR), { withFileTypes: true });
    expect(
      entries
        .filter((entry) => entry.isDirectory())
        .map((entry) => entry.name)
        .sort(),
    ).toEqual([...OWNERS].sort());
    expect(
      entries
        .filter((entry) => !entry.isDirectory())
        .map((entry) => entry.name)
        .sort(),
    ).toEqual(["define-resource-routes.ts", "index.ts"]);
  });

  it("declares each route in routes/<owner>/<resource>.ts: owned by the folder, keyed by the file's resource", () => {
    for (const { owner, resource, file, declared } of resourceFiles) {
      expect(Object.keys(declared).length, `${file} declares no route`).toBeGreaterThan(0);
      for (const [key, route] of Object.entries(declared)) {
        expect(route.owner, `${key} in ${file}`).toBe(owner);
        expect(key.startsWith(`${resource}.`), `${key} in ${file} must start with "${resource}."`).toBe(true);
      }
    }
  });

  it("assembles exactly the routes the resource files declare, each from one file", () => {
    const declared = resourceFiles.flatMap(({ declared }) => Object.entries(declared));
    expect(declared.map(([key]) => key).sort()).toEqual(Object.keys(routes).sort());
    for (const [key, route] of declared) expect(routes[key as keyof typeof routes], key).toBe(route);
  });

  it("keeps each owner's folder index to that owner's routes", async () => {
    for (const owner of OWNERS) {
      for (const [key, route] of Object.entries(await routesIn(new URL(`${owner}/index.ts`, ROUTES_DIR)))) expect(route.owner, key).toBe(owner);
    }
  });
});
