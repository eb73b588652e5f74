// `npm start` as a household runs it (every service its own process, embedded PostgreSQL), on a
// fresh data directory, for the benches that measure what only separate processes show.
import { spawn } from "node:child_process";
import { chmod, mkdtemp, readFile, rm } from "node:fs/promises";
import { fileURLToPath } from "node:url";

const root = fileURLToPath(new URL("../", import.meta.url));

export interface RunningHearth {
  base: string;
  /** The embedded PostgreSQL's connection to one app's database (a bench reads what the API does not show). */
  databaseUrl(app: "finance" | "gateway"): string;
  /** A new user (a family of their own) and a read-write API key of theirs. */
  newFamily(name: string): Promise<string>;
  post(path: string, body: unknown, headers?: Record<string, string>): Promise<{ status: number; body: Record<string, unknown> }>;
  stop(): Promise<void>;
}

export async function startHearth(port: number): Promise<RunningHearth> {
  const dir = await mkdtemp("/tmp/hearth-bench-");
  // As root, PostgreSQL runs as the postgres user and must create its cluster in here.
  await chmod(dir, 0o777);
  let output = "";
  const hearth = spawn("npm", ["start"], {
    cwd: root,
    env: {
      ...process.env,
      HEARTH_DATA_DIR: `${dir}/data`,
      PORT: String(port),
      LOG_LEVEL: "warn",
      RATE_LIMIT_REQUESTS: "100000000",
      FAMILY_RATE_LIMIT_REQUESTS: "100000000",
    },
    detached: true,
    stdio: ["ignore", "pipe", "pipe"],
  });
  const keep = (chunk: Buffer) => void (output = (output + chunk.toString()).slice(-100_000));
  hearth.stdout!.on("data", keep);
  hearth.stderr!.on("data", keep);
  const stop = async () => {
    if (hearth.pid && hearth.exitCode === null) {
      const exited = new Promise((resolve) => hearth.once("exit", resolve));
      process.kill(-hearth.pid, "SIGINT");
      await exited;
    }
    await rm(dir, { recursive: true, force: true });
  };
  try {
    for (let waited = 0; !output.includes("Press Ctrl-C"); waited += 250) {
      if (hearth.exitCode !== null) throw new Error(`npm start exited with ${hearth.exitCode}: ${output.slice(-2_000)}`);
      if (waited > 240_000) throw new Error("npm start did not get ready in time");
      await new Promise((resolve) => setTimeout(resolve, 250));
    }
    const pgPort = /PostgreSQL on 127\.0\.0\.1:(\d+)/.exec(output)?.[1];
    const { POSTGRES_PASSWORD } = JSON.parse(await readFile(`${dir}/data/secrets.json`, "utf8")) as { POSTGRES_PASSWORD: string };
    const base = `http://127.0.0.1:${port}`;
    const post = async (path: string, body: unknown, headers: Record<string, string> = {}) => {
      const res = await fetch(`${base}${path}`, { method: "POST", headers: { "content-type": "application/json", ...headers }, body: JSON.stringify(body) });
      return { status: res.status, body: (await res.json()) as Record<string, unknown> };
    };
    return {
      base,
      databaseUrl: (app) => `postgresql://hearth:${encodeURIComponent(POSTGRES_PASSWORD)}@127.0.0.1:${pgPort}/hearth_${app}`,
      post,
      async newFamily(name) {
        const device = { device_id: `bench-${name}`, device_name: "bench", device_type: "web", os_version: "1", app_version: "1" };
        const user = { email: `${name}-${Date.now()}@example.com`, password: "Bench-password-2026!", first_name: name, last_name: "Bench" };
        const signedUp = await post("/api/v1/auth/signup", { user, device });
        if (signedUp.status !== 201) throw new Error(`signup: ${signedUp.status} ${JSON.stringify(signedUp.body)}`);
        const key = await post(
          "/api/v1/api_keys",
          { api_key: { name: "bench", scopes: ["read_write"] } },
          { authorization: `Bearer ${String(signedUp.body["access_token"])}` },
        );
        if (key.status !== 201) throw new Error(`api key: ${key.status} ${JSON.stringify(key.body)}`);
        return String(key.body["key"]);
      },
      stop,
    };
  } catch (err) {
    await stop();
    throw err;
  }
}
