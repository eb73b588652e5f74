/**
 * Checks docker-compose.yml against the Compose Specification's JSON Schema and against the code.
 * Each Hearth service built from infra/docker/Dockerfile must set only variables its app's zod env
 * schema reads, every required one, with values the schema accepts. Ports, service URLs, database
 * URLs, Kafka brokers and the OTLP endpoint must agree with each other.
 *
 *   npx tsx scripts/check-compose.ts [--file docker-compose.yml] [--env]
 *
 * ${VAR:-default} takes its default, as on a machine without a .env file; with --env this process's
 * environment is used instead, as `docker compose` would. Exits 1 listing every problem.
 */
import { createHash } from "node:crypto";
import { existsSync, readFileSync, readdirSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";
import Ajv, { type ErrorObject } from "ajv";
import addFormats from "ajv-formats";
import { LineCounter, isAlias, isMap, isScalar, isSeq, parse as parseYaml, parseDocument } from "yaml";
import { AuditEnvSchema } from "@hearth/audit/config";
import { ChatEnvSchema } from "@hearth/chat/config";
import { FinanceEnvSchema } from "@hearth/finance/config";
import { GatewayEnvSchema } from "@hearth/gateway/config";
import { NotificationsEnvSchema } from "@hearth/notifications/config";
import { ConfigError, loadConfig } from "@hearth/service-kit";

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const SERVICE_DOCKERFILE = path.join(ROOT, "infra/docker/Dockerfile");
const SCHEMA_FILE = path.join(ROOT, "infra/docker/compose-spec.schema.json");

interface EnvSchema {
  shape: Record<string, { safeParse(value: unknown): { success: boolean } }>;
  safeParse(env: unknown): { success: true; data: Record<string, unknown> } | { success: false; error: { issues: { path: PropertyKey[]; message: string }[] } };
}

/** Each app's env schema, by the app folder that the SERVICE build argument names. */
const APP_SCHEMAS: Record<string, { name: string; schema: EnvSchema }> = {
  gateway: { name: "GatewayEnvSchema", schema: GatewayEnvSchema },
  finance: { name: "FinanceEnvSchema", schema: FinanceEnvSchema },
  chat: { name: "ChatEnvSchema", schema: ChatEnvSchema },
  notifications: { name: "NotificationsEnvSchema", schema: NotificationsEnvSchema },
  audit: { name: "AuditEnvSchema", schema: AuditEnvSchema },
};

type Json = string | number | boolean | null | Json[] | { [key: string]: Json };
type Obj = Record<string, Json>;
const isObj = (v: unknown): v is Obj => typeof v === "object" && v !== null && !Array.isArray(v);

const { values: args } = parseArgs({
  options: { file: { type: "string", default: path.join(ROOT, "docker-compose.yml") }, env: { type: "boolean", default: false } },
});
const composeFile = path.resolve(args.file);
const composeDir = path.dirname(composeFile);
const shownFile = path.relative(process.cwd(), composeFile) || composeFile;

const problems: string[] = [];
const problem = (at: string, message: string) => problems.push(`${at}: ${message}`);

// ---- parse, keeping positions for the messages --------------------------------------------------
const lineCounter = new LineCounter();
const doc = parseDocument(readFileSync(composeFile, "utf8"), { lineCounter, merge: true, uniqueKeys: true, prettyErrors: false });
for (const error of [...doc.errors, ...doc.warnings]) problem(`${shownFile}:${lineCounter.linePos(error.pos[0]).line}`, error.message);
if (doc.errors.length > 0) finish();

/** The `<<` key of a merge: with `merge: true` the yaml package gives it a symbol value. */
const isMergeKey = (key: unknown) => isScalar(key) && (typeof key.value === "symbol" || key.value === "<<");

/** Offset of `name` among the keys of a map, looking through `<<: *anchor` merges into the anchored maps. */
function keyOffset(node: unknown, name: string, depth = 0): number | undefined {
  if (depth > 8 || !isMap(node)) return undefined;
  const own = node.items.find((item) => isScalar(item.key) && item.key.value === name);
  if (own && isScalar(own.key)) return own.key.range?.[0];
  for (const item of node.items.filter((i) => isMergeKey(i.key))) {
    for (const source of isSeq(item.value) ? item.value.items : [item.value]) {
      const found = keyOffset(isAlias(source) ? source.resolve(doc) : source, name, depth + 1);
      if (found !== undefined) return found;
    }
  }
  return undefined;
}

/** `file:line` of the node at `segments` (or its nearest ancestor in the file); with `key`, of that key of the map there. */
function where(segments: (string | number)[], key?: string): string {
  const at = (offset: number) => `${shownFile}:${lineCounter.linePos(offset).line}`;
  const offset = key === undefined ? undefined : keyOffset(doc.getIn(segments, true), key);
  if (offset !== undefined) return at(offset);
  for (let n = segments.length; n >= 0; n--) {
    const node = doc.getIn(segments.slice(0, n), true) as { range?: [number, number, number] } | undefined;
    if (node?.range) return at(node.range[0]);
  }
  return shownFile;
}

// ---- interpolation, by Compose's rules: $$, $VAR, ${VAR}, ${VAR:-d}, ${VAR-d}, ${VAR:?e}, ${VAR?e}, ${VAR:+r}, ${VAR+r} ----
const hostEnv: Record<string, string | undefined> = args.env ? process.env : {};
/** An anchor used five times is one problem, not five. */
const reportedUnset = new Set<string>();

function interpolate(text: string, at: string): string {
  let out = "";
  for (let i = 0; i < text.length; i++) {
    const next = text[i + 1];
    if (text[i] !== "$") {
      out += text[i];
    } else if (next === "$") {
      out += "$";
      i++;
    } else if (next === "{") {
      let depth = 1;
      let j = i + 2;
      for (; j < text.length && depth > 0; j++) depth += text[j] === "{" ? 1 : text[j] === "}" ? -1 : 0;
      if (depth > 0) {
        problem(at, `unterminated \${ in ${JSON.stringify(text)}`);
        return out + text.slice(i);
      }
      out += substitute(text.slice(i + 2, j - 1), at);
      i = j - 1;
    } else {
      const name = /^[A-Za-z_][A-Za-z0-9_]*/.exec(text.slice(i + 1))?.[0];
      out += name ? substitute(name, at) : "$";
      i += name?.length ?? 0;
    }
  }
  return out;
}

function substitute(expression: string, at: string): string {
  const match = /^([A-Za-z_][A-Za-z0-9_]*)(?:(:?[-?+])([\s\S]*))?$/.exec(expression);
  if (!match) {
    problem(at, `invalid interpolation \${${expression}}`);
    return "";
  }
  const [, name = "", operator = "", word = ""] = match;
  const value = hostEnv[name];
  const missing = value === undefined || (operator.startsWith(":") && value === "");
  const reportOnce = (message: string) => {
    if (!reportedUnset.has(name)) problem(at, message);
    reportedUnset.add(name);
  };
  if (operator.endsWith("-")) return missing ? interpolate(word, at) : (value ?? "");
  if (operator.endsWith("+")) return missing ? "" : interpolate(word, at);
  if (operator.endsWith("?")) {
    // A required secret: without --env (no .env here) check the file with a random-looking stand-in.
    if (missing && !args.env) return createHash("sha256").update(name).digest("hex");
    if (missing) reportOnce(`${name} must be set${word ? ` (${interpolate(word, at)})` : ""}`);
    return value ?? "";
  }
  if (value === undefined) reportOnce(`\${${name}} has no default and is not set: give it a development default (\${${name}:-...})`);
  return value ?? "";
}

function interpolateAll(value: Json, segments: (string | number)[]): Json {
  if (typeof value === "string") return interpolate(value, where(segments));
  if (Array.isArray(value)) return value.map((item, i) => interpolateAll(item, [...segments, i]));
  if (isObj(value)) return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, interpolateAll(v, [...segments, k])]));
  return value;
}

const compose = interpolateAll(doc.toJS({ maxAliasCount: -1 }) as Json, []);
if (!isObj(compose)) {
  problem(shownFile, "not a YAML mapping");
  finish();
}

// ---- 1. the Compose Specification ----------------------------------------------------------------
{
  // The file declares "$schema": "https://json-schema.org/draft-07/schema", a spelling Ajv does not
  // know. It is draft-07, Ajv's default, so the key is dropped rather than the schema left unchecked.
  const { $schema: _draft, ...schema } = JSON.parse(readFileSync(SCHEMA_FILE, "utf8")) as Record<string, unknown>;
  const ajv = new Ajv({ allErrors: true, strict: false });
  addFormats(ajv);
  const validate = ajv.compile(schema);
  if (!validate(compose)) for (const line of describeSchemaErrors(validate.errors ?? [])) problems.push(line);
}

function describeSchemaErrors(errors: ErrorObject[]): Set<string> {
  const segmentsOf = (pointer: string) => (pointer ? pointer.split("/").slice(1) : []).map((s) => s.replaceAll("~1", "/").replaceAll("~0", "~"));
  // A oneOf/anyOf failure repeats what its branches said, and a branch that failed on the type alone
  // (depends_on "must be array") is noise when another branch got further: both shown only as a last resort.
  const deeper = (e: ErrorObject) => errors.some((f) => f.instancePath.startsWith(`${e.instancePath}/`));
  const precise = errors.filter((e) => e.keyword !== "oneOf" && e.keyword !== "anyOf" && !(e.keyword === "type" && deeper(e)));
  const lines = (precise.length > 0 ? precise : errors).map((e) => {
    const segments = segmentsOf(e.instancePath);
    const label = segments.join(".") || "(top level)";
    const allowed = e.keyword === "enum" ? `: ${(e.params as { allowedValues: unknown[] }).allowedValues.join(", ")}` : "";
    if (e.keyword !== "additionalProperties") return `${where(segments)}: ${label}: ${e.message ?? e.keyword}${allowed} (Compose Specification)`;
    const extra = String((e.params as { additionalProperty: string }).additionalProperty);
    return `${where(segments, extra)}: ${label}: unknown key "${extra}" (Compose Specification)`;
  });
  return new Set(lines);
}

// ---- 2. the Hearth services against the code -----------------------------------------------------
const services = isObj(compose["services"]) ? (compose["services"] as Record<string, Obj>) : {};

/** KEY -> value; null when passed through from the host (`- KEY` or `KEY:`), unknown here. */
function variablesOf(list: Json | undefined): Record<string, string | null> {
  if (isObj(list)) return Object.fromEntries(Object.entries(list).map(([k, v]) => [k, v === null ? null : String(v)]));
  if (!Array.isArray(list)) return {};
  return Object.fromEntries(
    list.map((entry) => {
      const [key = "", ...rest] = String(entry).split("=");
      return [key, rest.length > 0 ? rest.join("=") : null];
    }),
  );
}
const environmentOf = (name: string | null) => variablesOf(name ? services[name]?.["environment"] : undefined);

function dependsOn(service: Obj): Map<string, string> {
  const deps = service["depends_on"];
  if (Array.isArray(deps)) return new Map(deps.map((d) => [String(d), "service_started"]));
  if (!isObj(deps)) return new Map();
  return new Map(Object.entries(deps).map(([name, d]) => [name, isObj(d) ? String(d["condition"] ?? "service_started") : "service_started"]));
}

/** Container ports of `ports` or `expose` entries, short or long syntax. */
function containerPortsOf(entries: Json | undefined): string[] {
  if (!Array.isArray(entries)) return [];
  return entries.map((entry) => {
    if (isObj(entry)) return String(entry["target"]);
    const spec = String(entry).replace(/\/(tcp|udp|sctp)$/, "");
    return spec.slice(spec.lastIndexOf(":") + 1);
  });
}

function parseUrl(value: string): URL | null {
  try {
    return new URL(value);
  } catch {
    return null;
  }
}

/** Host of `scheme://host:port/...` or of a bare `host:port`. */
const hostOf = (endpoint: string) => (endpoint.includes("://") ? (parseUrl(endpoint)?.hostname ?? "") : endpoint.slice(0, endpoint.lastIndexOf(":")));

function editDistance(a: string, b: string): number {
  const row = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    let diagonal = row[0] ?? 0;
    row[0] = i;
    for (let j = 1; j <= b.length; j++) {
      const above = row[j] ?? 0;
      row[j] = Math.min(above + 1, (row[j - 1] ?? 0) + 1, diagonal + (a[i - 1] === b[j - 1] ? 0 : 1));
      diagonal = above;
    }
  }
  return row[b.length] ?? 0;
}

interface App {
  /** Its name in docker-compose.yml. */
  service: string;
  /** Its folder in apps/. */
  app: string;
  env: Record<string, string | null>;
  /** The parsed config, when the schema accepts the environment. */
  config: Record<string, unknown> | null;
}
const apps: App[] = [];

/** Variables Node.js itself reads at start (the app's flags: packages/dev-tools/src/start/app-node-flags.ts), not the app's config. */
const READ_BY_NODE = ["NODE_OPTIONS"];

for (const [name, service] of Object.entries(services)) {
  const build = typeof service["build"] === "string" ? { context: service["build"] } : service["build"];
  if (!isObj(build)) continue;
  const dockerfile = path.resolve(composeDir, String(build["context"] ?? "."), String(build["dockerfile"] ?? "Dockerfile"));
  if (dockerfile !== SERVICE_DOCKERFILE) continue;
  const envAt = (key?: string) => where(["services", name, "environment"], key);

  const app = variablesOf(build["args"])["SERVICE"];
  const known = app ? APP_SCHEMAS[app] : undefined;
  if (!app || !known) {
    const got = app ? `"${app}", not one of ${Object.keys(APP_SCHEMAS).join(", ")}` : "not set";
    problem(where(["services", name, "build"]), `${name} is built from infra/docker/Dockerfile but its build argument SERVICE is ${got}`);
    continue;
  }
  if (service["env_file"] !== undefined) {
    problem(where(["services", name, "env_file"]), `${name}: env_file is not checked against ${known.name}; set the variables under environment`);
  }

  const env = variablesOf(service["environment"]);
  const keys = Object.keys(known.schema.shape);
  for (const key of Object.keys(env).filter((k) => !keys.includes(k) && !READ_BY_NODE.includes(k))) {
    const near = keys.filter((k) => editDistance(k, key) <= 3).sort((a, b) => editDistance(a, key) - editDistance(b, key))[0];
    problem(envAt(key), `${name} sets ${key}, which apps/${app} does not read (not a key of ${known.name})${near ? `; did you mean ${near}?` : ""}`);
  }
  for (const key of keys.filter((k) => !(k in env) && !known.schema.shape[k]?.safeParse(undefined).success)) {
    problem(envAt(), `${name} does not set ${key}, which ${known.name} requires (it has no default)`);
  }
  // Values as the container gets them; passed-through ones are unknown here and left out.
  const given = Object.fromEntries(Object.entries(env).filter((entry): entry is [string, string] => entry[1] !== null));
  const parsed = known.schema.safeParse(given);
  if (!parsed.success) {
    for (const issue of parsed.error.issues) {
      const key = String(issue.path[0] ?? "");
      if (key in given) problem(envAt(key), `${name}: ${key}=${JSON.stringify(given[key])} is rejected by ${known.name}: ${issue.message}`);
    }
  }
  if (parsed.success) {
    // What a service checks only at start: in production, no published default or placeholder secret.
    try {
      loadConfig(known.schema as unknown as Parameters<typeof loadConfig>[0], given);
    } catch (error) {
      if (!(error instanceof ConfigError)) throw error;
      for (const message of error.problems) problem(envAt(message.split(":")[0]), `${name}: ${message}`);
    }
  }
  apps.push({ service: name, app, env, config: parsed.success ? parsed.data : null });
}

for (const app of Object.keys(APP_SCHEMAS)) {
  const count = apps.filter((a) => a.app === app).length;
  if (count !== 1) problem(where(["services"]), `apps/${app} should run as exactly one service built from infra/docker/Dockerfile (found ${count})`);
}
for (const folder of readdirSync(path.join(ROOT, "apps"))) {
  if (existsSync(path.join(ROOT, "apps", folder, "src/main.ts")) && !(folder in APP_SCHEMAS)) {
    problem("scripts/check-compose.ts", `apps/${folder} is missing from APP_SCHEMAS: add its env schema so its compose service gets checked`);
  }
}

/** The compose service `host` names, which `app` must depend on; null (and a problem) when there is none. */
function targetOf(app: App, key: string, host: string): string | null {
  if (!(host in services)) {
    problem(where(["services", app.service, "environment"], key), `${app.service}: ${key} points at host "${host}", which is not a service of this file`);
    return null;
  }
  // A service the callee itself depends on (chat asking the gateway, which depends on chat) cannot
  // depend on it back (compose refuses a cycle); it calls it only once running, at request time.
  const reachedBack = dependsOn(services[host] ?? {}).has(app.service);
  if (!dependsOn(services[app.service] ?? {}).has(host) && !reachedBack) {
    problem(where(["services", app.service, "depends_on"]), `${app.service} reaches ${host} through ${key} but does not depend_on it`);
  }
  return host;
}

const databaseOwners = new Map<string, string>();
/** Collector service -> port of its OTLP/HTTP receiver: its config is read (and reported on) once. */
const collectorPorts = new Map<string, string | null>();
for (const app of apps) {
  const service = services[app.service] ?? {};
  const at = (...segments: string[]) => where(["services", app.service, ...segments]);
  const envAt = (key: string) => where(["services", app.service, "environment"], key);
  const port = app.config ? String(app.config["PORT"]) : null;
  const host = app.config ? String(app.config["HOST"]) : null;

  // Listening where other containers reach it, and published or exposed on the port it listens on.
  if (host && ["127.0.0.1", "localhost", "::1"].includes(host)) {
    problem(envAt("HOST"), `${app.service} listens on ${host}, which other containers cannot reach: set HOST=0.0.0.0`);
  }
  if (port) {
    for (const other of containerPortsOf(service["ports"]).filter((p) => p !== port)) {
      problem(at("ports"), `${app.service} publishes container port ${other}, but it listens on PORT=${port}`);
    }
    for (const other of containerPortsOf(service["expose"]).filter((p) => p !== port)) {
      problem(at("expose"), `${app.service} exposes ${other}, but it listens on PORT=${port}`);
    }
    if (app.app === "gateway" && !containerPortsOf(service["ports"]).includes(port)) {
      problem(at("ports"), `the gateway is the public API but does not publish its PORT ${port}`);
    }
  }

  // The gateway's service URLs: http://<the service running that app>:<its PORT>, without a path.
  for (const [key, value] of Object.entries(app.env)) {
    const callee = /^([A-Z]+)_URL$/.exec(key)?.[1]?.toLowerCase();
    const url = callee && callee in APP_SCHEMAS && value !== null ? parseUrl(value) : null;
    if (!callee || !url) continue; // an invalid URL is reported by the schema
    const target = targetOf(app, key, url.hostname);
    const running = apps.find((a) => a.service === target);
    const targetPort = running?.config ? String(running.config["PORT"]) : null;
    const urlPort = url.port || (url.protocol === "https:" ? "443" : "80");
    if (target && running?.app !== callee)
      problem(envAt(key), `${key} points at ${target}, which is not built from infra/docker/Dockerfile with SERVICE=${callee}`);
    if (targetPort && urlPort !== targetPort) problem(envAt(key), `${key} uses port ${urlPort}, but ${target} listens on PORT=${targetPort}`);
    if (url.protocol !== "http:") problem(envAt(key), `${key} must be http:// inside the compose network, not ${url.protocol}//`);
    if (url.pathname !== "/" || url.search) problem(envAt(key), `${key} must be the service's base URL: the gateway appends /trpc and /ready`);
  }

  // DATABASE_URL: a database of its own, on a service of this file; the init script's names when it is there.
  const databaseUrl = app.env["DATABASE_URL"] ? parseUrl(app.env["DATABASE_URL"]) : null;
  if (databaseUrl) {
    const target = targetOf(app, "DATABASE_URL", databaseUrl.hostname);
    const database = decodeURIComponent(databaseUrl.pathname.slice(1));
    const owner = databaseOwners.get(`${databaseUrl.host}/${database}`);
    if (owner) problem(envAt("DATABASE_URL"), `${app.service} and ${owner} share database ${database}: each service owns its own`);
    databaseOwners.set(`${databaseUrl.host}/${database}`, app.service);
    if (!["postgres:", "postgresql:"].includes(databaseUrl.protocol)) problem(envAt("DATABASE_URL"), "DATABASE_URL must be a postgresql:// URL");
    const server = environmentOf(target);
    const created = server["HEARTH_SERVICES"]?.split(/\s+/);
    if (created) {
      const expected = `hearth_${app.app}`;
      const passwordKey = `${app.app.toUpperCase()}_DB_PASSWORD`;
      const password = server[passwordKey];
      if (!created.includes(app.app)) {
        problem(where(["services", target ?? "", "environment"], "HEARTH_SERVICES"), `does not list ${app.app}, so its database is never created`);
      }
      if (database !== expected) problem(envAt("DATABASE_URL"), `${app.service} uses database ${database}, but infra/postgres/init creates ${expected}`);
      if (decodeURIComponent(databaseUrl.username) !== expected) {
        problem(envAt("DATABASE_URL"), `${app.service} logs in as ${databaseUrl.username}, but infra/postgres/init creates the role ${expected}`);
      }
      if (password === undefined) problem(where(["services", target ?? "", "environment"]), `${target} gets no ${passwordKey} for the role ${expected}`);
      else if (password !== null && decodeURIComponent(databaseUrl.password) !== password) {
        problem(envAt("DATABASE_URL"), `the password in ${app.service}'s DATABASE_URL differs from ${passwordKey} given to ${target}`);
      }
      if (databaseUrl.port && databaseUrl.port !== "5432") problem(envAt("DATABASE_URL"), `PostgreSQL listens on 5432 in the network, not ${databaseUrl.port}`);
    }
  }

  // KAFKA_BROKERS: host:port pairs that a broker of this file advertises.
  const brokers = (app.env["KAFKA_BROKERS"] ?? "").split(",").map((broker) => broker.trim());
  for (const broker of brokers.filter(Boolean)) {
    const target = targetOf(app, "KAFKA_BROKERS", hostOf(broker));
    const advertised = environmentOf(target)["KAFKA_ADVERTISED_LISTENERS"];
    const addresses = advertised?.split(",").map((listener) => listener.trim().replace(/^[A-Za-z0-9_]+:\/\//, ""));
    if (advertised && !addresses?.includes(broker)) {
      problem(envAt("KAFKA_BROKERS"), `${app.service}: KAFKA_BROKERS has ${broker}, which ${target} does not advertise (${advertised})`);
    }
  }

  // OTEL_EXPORTER_OTLP_ENDPOINT: the OTLP/HTTP receiver of the collector config mounted into that service.
  const otlp = app.env["OTEL_EXPORTER_OTLP_ENDPOINT"] ? parseUrl(app.env["OTEL_EXPORTER_OTLP_ENDPOINT"]) : null;
  if (otlp) {
    const target = targetOf(app, "OTEL_EXPORTER_OTLP_ENDPOINT", otlp.hostname);
    const receiverPort = target ? collectorHttpPort(target) : null;
    if (otlp.pathname !== "/")
      problem(
        envAt("OTEL_EXPORTER_OTLP_ENDPOINT"),
        `${app.service}: OTEL_EXPORTER_OTLP_ENDPOINT must be the collector's base URL; the code appends /v1/traces`,
      );
    if (receiverPort && otlp.port !== receiverPort) {
      const port = otlp.port || "(default)";
      problem(
        envAt("OTEL_EXPORTER_OTLP_ENDPOINT"),
        `${app.service}: OTEL_EXPORTER_OTLP_ENDPOINT uses port ${port}, but the OTLP/HTTP receiver of ${target} listens on ${receiverPort}`,
      );
    }
  }
}

/** Port of the OTLP/HTTP receiver in the collector config that a service mounts; checks the config's exporter hosts on the way. */
function collectorHttpPort(name: string): string | null {
  if (!collectorPorts.has(name)) collectorPorts.set(name, readCollectorHttpPort(name));
  return collectorPorts.get(name) ?? null;
}

function readCollectorHttpPort(name: string): string | null {
  const volumes = services[name]?.["volumes"];
  for (const volume of Array.isArray(volumes) ? volumes : []) {
    const source = isObj(volume) ? String(volume["source"] ?? "") : (String(volume).split(":")[0] ?? "");
    const file = path.resolve(composeDir, source);
    if (!/\.ya?ml$/.test(file) || !existsSync(file)) continue;
    const shown = path.relative(process.cwd(), file);
    const config = parseYaml(readFileSync(file, "utf8")) as Json;
    if (!isObj(config) || !isObj(config["receivers"])) continue;
    const receiver = Object.entries(config["receivers"]).find(([id]) => id === "otlp" || id.startsWith("otlp/"))?.[1];
    if (!isObj(receiver)) continue;
    for (const [id, exporter] of Object.entries(isObj(config["exporters"]) ? config["exporters"] : {})) {
      const endpoint = isObj(exporter) && typeof exporter["endpoint"] === "string" ? exporter["endpoint"] : null;
      const host = endpoint ? hostOf(endpoint) : null;
      if (host && !["localhost", "127.0.0.1", "0.0.0.0"].includes(host) && !(host in services)) {
        problem(shown, `exporter ${id} sends to "${host}", which is not a service of ${path.basename(composeFile)}`);
      }
    }
    const protocols = isObj(receiver["protocols"]) ? receiver["protocols"] : {};
    if (!("http" in protocols)) {
      problem(shown, "the OTLP receiver has no http protocol, but the services send OTLP over HTTP");
      return null;
    }
    const http = protocols["http"];
    const endpoint = isObj(http) && typeof http["endpoint"] === "string" ? http["endpoint"] : "localhost:4318";
    return endpoint.slice(endpoint.lastIndexOf(":") + 1);
  }
  return null;
}

// ---- 3. wiring: depends_on targets exist; those waited for as healthy have a healthcheck ---------
for (const [name, service] of Object.entries(services)) {
  for (const [target, condition] of dependsOn(service)) {
    const dependency = services[target];
    const at = where(["services", name, "depends_on"], target);
    const healthcheck = dependency?.["healthcheck"];
    if (!dependency) problem(at, `${name} depends on "${target}", which is not a service of this file`);
    else if (condition === "service_healthy" && (!isObj(healthcheck) || healthcheck["disable"] === true)) {
      problem(at, `${name} waits for ${target} to be healthy, but ${target} has no healthcheck`);
    }
  }
}

finish();

function finish(): never {
  if (problems.length > 0) {
    console.error(`${shownFile}: ${problems.length} problem${problems.length === 1 ? "" : "s"}`);
    for (const line of problems) console.error(`  - ${line}`);
    process.exit(1);
  }
  console.log(`${shownFile}: valid against the Compose Specification (infra/docker/compose-spec.schema.json)`);
  console.log(`${shownFile}: ${apps.map((a) => a.service).join(", ")} agree with their env schemas, ports, service URLs, databases, Kafka and OTLP endpoint`);
  process.exit(0);
}
