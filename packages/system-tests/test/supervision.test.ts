// `npm start` as a self-hosting household runs it: a crashed service is started again while the
// rest keep serving, and its routes answer 503 with Retry-After meanwhile (supervision).
import { spawn, type ChildProcess } from "node:child_process";
import { chmod, mkdtemp, rm } from "node:fs/promises";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { freePort, pidOfStartedApp } from "@hearth/test-kit";
import { DEVICE, TEST_PASSWORD, apiClient, type ApiClient } from "../src";

const ROOT = fileURLToPath(new URL("../../../", import.meta.url));
let base: string;
let dataDir: string;
let supervisor: ChildProcess;
let output = "";
let api: ApiClient;

async function until(condition: () => boolean | Promise<boolean>, timeoutMs: number, what: string): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await condition())) {
    if (Date.now() > deadline) throw new Error(`${what} did not happen within ${timeoutMs / 1000} s; npm start said:\n${output.slice(-3000)}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

const pidOf = (app: string) => pidOfStartedApp(app, dataDir);

beforeAll(async () => {
  base = await mkdtemp("/tmp/hearth-supervision-");
  await chmod(base, 0o777); // as root, the embedded PostgreSQL runs as postgres and makes its cluster in here
  dataDir = `${base}/data`;
  const port = await freePort();
  supervisor = spawn("npm", ["start"], {
    cwd: ROOT,
    env: { ...process.env, HEARTH_DATA_DIR: dataDir, PORT: String(port), LOG_LEVEL: "warn" },
    detached: true,
    stdio: ["ignore", "pipe", "pipe"],
  });
  supervisor.stdout?.on("data", (chunk: Buffer) => (output += chunk.toString()));
  supervisor.stderr?.on("data", (chunk: Buffer) => (output += chunk.toString()));
  await until(() => output.includes("Hearth is running at"), 240_000, "npm start getting ready");
  api = apiClient(`http://127.0.0.1:${port}`);
}, 300_000);

afterAll(async () => {
  if (supervisor?.pid && supervisor.exitCode === null) {
    const exited = new Promise((resolve) => supervisor.once("exit", resolve));
    process.kill(-supervisor.pid, "SIGINT");
    await exited;
  }
  await rm(base, { recursive: true, force: true });
}, 60_000);

describe("npm start supervises its services", () => {
  it("starts a SIGKILLed service again; its routes answer 503 with Retry-After meanwhile, never 500, and the others go on", async () => {
    const signup = await api.post("/api/v1/auth/signup", {
      user: { email: "supervised@example.com", password: TEST_PASSWORD, first_name: "S", last_name: "V" },
      device: DEVICE,
    });
    expect(signup.status).toBe(201);
    const token = signup.body.access_token as string;
    expect((await api.get("/api/v1/audit-logs", { token })).status).toBe(200);

    process.kill(await pidOf("audit"), "SIGKILL");
    const answers: number[] = [];
    let unavailable: { status: number; body: unknown; retryAfter: string | null } | undefined;
    await until(
      async () => {
        const res = await api.get("/api/v1/audit-logs", { token });
        answers.push(res.status);
        if (res.status === 503) unavailable ??= { status: res.status, body: res.body, retryAfter: res.headers.get("retry-after") };
        // A route of another service is served throughout.
        if (res.status === 503) expect((await api.get("/api/v1/tags", { token })).status).toBe(200);
        return res.status === 200 && unavailable !== undefined;
      },
      60_000,
      "the audit service coming back",
    );
    expect(unavailable).toEqual({ status: 503, body: { error: "service_unavailable", message: "The audit service is unavailable" }, retryAfter: "5" });
    expect(answers.filter((status) => status !== 200 && status !== 503)).toEqual([]);
    expect(output).toMatch(/audit exited unexpectedly \(killed by SIGKILL\); starting it again in 1 s/);
    await until(() => output.includes("audit is running again"), 30_000, "the supervisor reporting the audit service back");
    expect(supervisor.exitCode).toBeNull();
  });
});
