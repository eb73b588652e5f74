import { say } from "./log";

/** A body the signup route accepts (packages/contracts/src/resources/auth.ts: SignupBodySchema). */
const SIGNUP_EXAMPLE = {
  user: { email: "you@example.com", password: "Change-me-2024", first_name: "Ada", last_name: "Lovelace" },
  device: { device_id: "cli", device_name: "curl", device_type: "web", os_version: "1", app_version: "1" },
};

/** The URL people can open: `localhost` when the gateway listens on every address. */
export function publicUrl(host: string, port: number): string {
  const shown = host === "0.0.0.0" || host === "::" ? "localhost" : host.includes(":") ? `[${host}]` : host;
  return `http://${shown}:${port}`;
}

export function printBanner(options: { url: string; dataDir: string; postgres?: string }): void {
  const signup = `curl -X POST ${options.url}/api/v1/auth/signup -H 'content-type: application/json' -d '${JSON.stringify(SIGNUP_EXAMPLE)}'`;
  say(`Hearth is running at ${options.url}`);
  say(`API docs: ${options.url}/api/docs`);
  say(`Sign up (expects 201 with tokens):\n\n  ${signup}\n`);
  say(`Data: ${options.dataDir}${options.postgres ? ` (PostgreSQL ${options.postgres})` : ""}. Press Ctrl-C to stop.`);
}
