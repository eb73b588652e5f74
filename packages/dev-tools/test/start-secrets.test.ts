import { mkdtemp, mkdir, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { loadSecrets } from "../src/start/secrets";

let dataDir: string;
beforeEach(async () => {
  dataDir = await mkdtemp(path.join(tmpdir(), "hearth-secrets-"));
});
afterEach(async () => rm(dataDir, { recursive: true, force: true }));

const secretsFile = () => path.join(dataDir, "secrets.json");
const stored = async () => JSON.parse(await readFile(secretsFile(), "utf8")) as Record<string, string>;

describe("npm start's secrets", () => {
  it("generates every secret on a fresh data directory and keeps them across starts", async () => {
    const first = await loadSecrets(dataDir, {});
    expect(Object.values(first).every((secret) => secret.length >= 32)).toBe(true);
    expect(await loadSecrets(dataDir, {})).toEqual(first);
  });

  it("refuses to generate a new SECRETS_ENCRYPTION_KEY when secrets.json lost it (sealed TOTP seeds would become unreadable)", async () => {
    const first = await loadSecrets(dataDir, {});
    const { SECRETS_ENCRYPTION_KEY: _lost, ...rest } = first;
    await writeFile(secretsFile(), JSON.stringify(rest));
    await expect(loadSecrets(dataDir, {})).rejects.toThrow(/Refusing to generate a new SECRETS_ENCRYPTION_KEY/);
    expect(Object.keys(await stored())).not.toContain("SECRETS_ENCRYPTION_KEY"); // nothing written
    // The way out it names: the key in the environment.
    expect((await loadSecrets(dataDir, { SECRETS_ENCRYPTION_KEY: first.SECRETS_ENCRYPTION_KEY })).SECRETS_ENCRYPTION_KEY).toBe(first.SECRETS_ENCRYPTION_KEY);
  });

  it("refuses a too-short stored SECRETS_ENCRYPTION_KEY instead of replacing it", async () => {
    const first = await loadSecrets(dataDir, {});
    await writeFile(secretsFile(), JSON.stringify({ ...first, SECRETS_ENCRYPTION_KEY: "short" }));
    await expect(loadSecrets(dataDir, {})).rejects.toThrow(/no valid SECRETS_ENCRYPTION_KEY/);
  });

  it("refuses to start over when secrets.json is gone but the embedded database is still there", async () => {
    await mkdir(path.join(dataDir, "postgres"), { recursive: true });
    await writeFile(path.join(dataDir, "postgres", "PG_VERSION"), "18\n");
    await expect(loadSecrets(dataDir, {})).rejects.toThrow(/secrets.json is missing, but this data directory already holds a database/);
  });

  it("regenerates a lost JWT_SECRET with a warning (it only signs everyone out)", async () => {
    const first = await loadSecrets(dataDir, {});
    const { JWT_SECRET: _lost, ...rest } = first;
    await writeFile(secretsFile(), JSON.stringify(rest));
    const warnings: string[] = [];
    const next = await loadSecrets(dataDir, {}, (message) => warnings.push(message));
    expect(next.JWT_SECRET).not.toBe(first.JWT_SECRET);
    expect(next.SECRETS_ENCRYPTION_KEY).toBe(first.SECRETS_ENCRYPTION_KEY);
    expect(warnings).toEqual([expect.stringContaining("JWT_SECRET was missing")]);
  });

  it("keeps a SECRETS_ENCRYPTION_KEY given in the environment on the first start, so a later start without it finds the same key", async () => {
    const given = "fd61a03af4f77d870fc21e05e7e80678095c92d808cfb3b5c279ee04c74aca13";
    expect((await loadSecrets(dataDir, { SECRETS_ENCRYPTION_KEY: given })).SECRETS_ENCRYPTION_KEY).toBe(given);
    expect((await loadSecrets(dataDir, {})).SECRETS_ENCRYPTION_KEY).toBe(given);
  });
});
