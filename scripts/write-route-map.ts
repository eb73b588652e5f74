// `npm run docs:routes`: writes docs/route-map.md from the route table (see route-map.ts).
import { writeFile } from "node:fs/promises";
import { fileURLToPath } from "node:url";
import { ROUTE_MAP_FILE, routeMapMarkdown } from "@hearth/dev-tools/route-map";

const root = fileURLToPath(new URL("../", import.meta.url));
await writeFile(`${root}${ROUTE_MAP_FILE}`, await routeMapMarkdown(root));
console.log(`${ROUTE_MAP_FILE} written`);
