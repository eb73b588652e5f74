import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { APP_NODE_FLAGS } from "../src/start/app-node-flags";
import { APP_NAMES } from "../src/start/settings";

const root = new URL("../../../", import.meta.url);
const read = (file: string) => readFileSync(new URL(file, root), "utf8");

/** The environment block of one service in docker-compose.yml (up to the next service). */
function composeService(name: string): string {
  const compose = read("docker-compose.yml");
  const start = compose.indexOf(`\n  ${name}:\n`);
  if (start === -1) throw new Error(`no ${name} service in docker-compose.yml`);
  const next = compose.slice(start + 1).search(/\n {2}[a-z][\w-]*:\n/);
  return next === -1 ? compose.slice(start) : compose.slice(start, start + 1 + next);
}

describe("the Node.js flags of each app are the same wherever it runs", () => {
  it.each(APP_NAMES)("%s: its npm start script and docker-compose's NODE_OPTIONS carry APP_NODE_FLAGS", (app) => {
    const flags = APP_NODE_FLAGS[app];
    const start = (JSON.parse(read(`apps/${app}/package.json`)) as { scripts: { start: string } }).scripts.start;
    const nodeOptions = /NODE_OPTIONS: (.*)\n/.exec(composeService(app))?.[1]?.trim() ?? "";
    for (const flag of flags) expect(start.split(" ")).toContain(flag);
    expect(nodeOptions.split(" ").filter(Boolean)).toEqual([...flags]);
  });
});
