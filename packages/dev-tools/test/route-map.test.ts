import { readFile } from "node:fs/promises";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { ROUTE_MAP_FILE, routeMapMarkdown } from "../src/docs/route-map";

const root = path.resolve(import.meta.dirname, "..", "..", "..");

describe("docs/route-map.md", () => {
  it("is current with the route table and the handler maps (npm run docs:routes writes it)", async () => {
    const written = await readFile(path.join(root, ROUTE_MAP_FILE), "utf8");
    expect(written, "docs/route-map.md is stale: run npm run docs:routes").toBe(await routeMapMarkdown(root));
  });

  it("names a handler file for every route", async () => {
    expect((await routeMapMarkdown(root)).split("\n").filter((line) => line.includes("(none found)"))).toEqual([]);
  });
});
