import { readdir, readFile } from "node:fs/promises";
import path from "node:path";
import { methodsOf, routes, type RouteAccess, type RouteDef } from "@hearth/contracts";

/** Where docs/route-map.md lives, from the repository's root. */
export const ROUTE_MAP_FILE = "docs/route-map.md";

/**
 * docs/route-map.md: every public route from the route table (contracts/src/routes), with who
 * serves it and the handler file that answers it, found by the procedure's key in a handler map
 * (`"tags.update": update`) or a handler's type (`LocalHandler<"auth.login">`) in a `*handlers.ts`
 * file of the owner's app. A newcomer reads a route's
 * way in one line; the test beside this keeps the file current.
 */
export async function routeMapMarkdown(root: string): Promise<string> {
  const handlerFiles = await handlerFilesByProcedure(root);
  const rows = Object.values(routes as Record<string, RouteDef>).map((route) => {
    const handler = handlerFiles.get(`${route.owner}:${route.procedure}`);
    return `| ${methodsOf(route).join(", ")} | \`${route.path}\` | \`${route.procedure}\` | ${route.owner} | ${accessOf(route.access)} | ${handler ? `\`${handler}\`` : "(none found)"} |`;
  });
  return [
    "# Route map",
    "",
    "Every public route, from the route table (`packages/contracts/src/routes/`). Written by",
    "`npm run docs:routes`; a test fails when this file is not current.",
    "",
    "| method | path | procedure | served by | access | handler |",
    "| --- | --- | --- | --- | --- | --- |",
    ...rows,
    "",
  ].join("\n");
}

/** Who may call: the credential, then the scope, role and AI switch it needs. */
function accessOf(access: RouteAccess): string {
  const credential = { public: "public", any: "API key or bearer", bearer: "bearer only" }[access.auth];
  return [credential, access.scope, access.role, access.ai ? "AI on" : undefined].filter(Boolean).join(", ");
}

/** `<owner>:<procedure>` to the handler file (from the root) whose handler map has the procedure's key. */
async function handlerFilesByProcedure(root: string): Promise<Map<string, string>> {
  const found = new Map<string, string>();
  const owners = new Set(Object.values(routes as Record<string, RouteDef>).map((route) => route.owner));
  for (const owner of owners) {
    const src = path.join(root, "apps", owner, "src");
    const files = (await readdir(src, { recursive: true })).filter((file) => file.endsWith("handlers.ts") && !file.startsWith("generated"));
    for (const file of files.sort()) {
      const text = await readFile(path.join(src, file), "utf8");
      // A key of the handler map (`"tags.update": update`), or a handler typed for the procedure.
      for (const match of text.matchAll(/"([a-zA-Z]+(?:\.[a-zA-Z]+)+)"\s*:|Handler<"([a-zA-Z.]+)">/g)) {
        const procedure = match[1] ?? match[2];
        if (!found.has(`${owner}:${procedure}`)) found.set(`${owner}:${procedure}`, path.posix.join("apps", owner, "src", file.split(path.sep).join("/")));
      }
    }
  }
  return found;
}
