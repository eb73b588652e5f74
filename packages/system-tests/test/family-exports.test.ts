// Family exports through the gateway as a Sure client uses them (data out): queue, poll, download
// by the 302 to a signed link, and read the ZIP. Cases mirror Sure's
// test/controllers/api/v1/family_exports_controller_test.rb where named.
import { randomBytes } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ApiKeyUsageSchema, FamilyExportCollectionSchema, FamilyExportResponseSchema } from "@hearth/contracts";
import { testPostgresAdminUrl } from "@hearth/test-kit";
import { DEVICE, TEST_PASSWORD, apiClient, eventually, signUpUser, startSystem, unzipTexts, type ApiClient, type TestSystem, type TestUser } from "../src";

let system: TestSystem;
let api: ApiClient;
let admin: TestUser;
let memberToken: string;

beforeAll(async () => {
  system = await startSystem({ adminUrl: testPostgresAdminUrl() });
  api = apiClient(system.url);
  admin = await signUpUser(api, "exporter");
  const email = `member-${randomBytes(4).toString("hex")}@example.com`;
  const invite = await api.post("/api/v1/invitations", { invitation: { email, role: "member" } }, { token: admin.accessToken });
  const signup = await api.post("/api/v1/auth/signup", { user: { email, password: TEST_PASSWORD }, device: DEVICE, invite_code: invite.body.invite_code });
  memberToken = signup.body.access_token;
  const account = await api.post(
    "/api/v1/accounts",
    { account: { name: "Checking, main", account_type: "depository", balance: "1200.50", opening_balance_date: "2026-01-01" } },
    { apiKey: admin.writeKey },
  );
  await api.post(
    "/api/v1/transactions",
    { transaction: { account_id: account.body.id, name: 'Corner "shop"', date: "2026-02-03", amount: "12.34", nature: "expense" } },
    { apiKey: admin.writeKey },
  );
});
afterAll(async () => system?.stop());

async function completedExport(user: TestUser): Promise<string> {
  const created = await api.post("/api/v1/family_exports", undefined, { apiKey: user.writeKey });
  expect(created.status, JSON.stringify(created.body)).toBe(202);
  const { data } = FamilyExportResponseSchema.parse(created.body);
  await eventually(async () => {
    const shown = await api.get(`/api/v1/family_exports/${data.id}`, { apiKey: user.readKey });
    expect(shown.body.data.status).toBe("completed");
  });
  return data.id;
}

describe("family exports", () => {
  it("are a family admin's: members 403, read-only keys cannot create, no credential 401 ('requires admin', 'requires write scope')", async () => {
    const asMember = await api.post("/api/v1/family_exports", undefined, { token: memberToken });
    expect(asMember.status).toBe(403);
    expect((await api.get("/api/v1/family_exports", { token: memberToken })).status).toBe(403);
    const readOnly = await api.post("/api/v1/family_exports", undefined, { apiKey: admin.readKey });
    expect(readOnly.status).toBe(403);
    expect(readOnly.body.error).toBe("insufficient_scope");
    expect((await api.get("/api/v1/family_exports")).status).toBe(401);
  });

  it("refuse any parameter with 422 invalid_params ('create rejects unsupported params')", async () => {
    for (const [path, body] of [
      ["/api/v1/family_exports", { family_export: { format: "csv" } }],
      ["/api/v1/family_exports?format=csv", undefined],
    ] as const) {
      const res = await api.post(path, body, { apiKey: admin.writeKey });
      expect(res.status, path).toBe(422);
      expect(res.body).toMatchObject({ error: "invalid_params", message: "Family export creation does not accept request parameters" });
    }
  });

  it("are queued (202), built in the background, listed newest first, and downloaded through a signed link", async () => {
    const created = await api.post("/api/v1/family_exports", undefined, { apiKey: admin.writeKey });
    expect(created.status).toBe(202);
    const { data } = FamilyExportResponseSchema.parse(created.body);
    expect(data.filename).toMatch(/^sure_export_\d{8}_\d{6}\.zip$/);
    expect(["pending", "processing", "completed"]).toContain(data.status);

    const completed = await eventually(async () => {
      const shown = FamilyExportResponseSchema.parse((await api.get(`/api/v1/family_exports/${data.id}`, { apiKey: admin.readKey })).body).data;
      expect(shown.status).toBe("completed");
      return shown;
    });
    expect(completed).toMatchObject({
      downloadable: true,
      download_path: `/api/v1/family_exports/${data.id}/download`,
      file: { attached: true, content_type: "application/zip" },
    });
    expect(completed.file.byte_size).toBeGreaterThan(0);

    const list = FamilyExportCollectionSchema.parse((await api.get("/api/v1/family_exports?per_page=1", { apiKey: admin.readKey })).body);
    expect(list.data.map((e) => e.id)).toEqual([data.id]);
    expect(list.meta).toMatchObject({ page: 1, per_page: 1 });

    const download = await fetch(`${system.url}/api/v1/family_exports/${data.id}/download`, { headers: { "x-api-key": admin.readKey }, redirect: "manual" });
    expect(download.status).toBe(302);
    const location = download.headers.get("location") ?? "";
    expect(location).toMatch(new RegExp(`^/api/v1/family_exports/${data.id}/file\\?`));

    // The link alone is the grant: no credential needed, the ZIP comes whole.
    const file = await fetch(`${system.url}${location}`);
    expect(file.status).toBe(200);
    expect(file.headers.get("content-type")).toBe("application/zip");
    expect(file.headers.get("content-disposition")).toBe(`attachment; filename="${completed.filename}"`);
    const bytes = Buffer.from(await file.arrayBuffer());
    expect(bytes.length).toBe(completed.file.byte_size);
    const files = await unzipTexts(bytes);
    expect([...files.keys()]).toEqual(expect.arrayContaining(["version.txt", "accounts.csv", "transactions.csv", "all.ndjson"]));
    expect(files.get("accounts.csv")).toContain('"Checking, main"');
    expect(files.get("transactions.csv")).toContain('"Corner ""shop"""');

    // Altered or borrowed for another export: refused.
    const url = new URL(location, system.url);
    url.searchParams.set("signature", `${url.searchParams.get("signature")?.slice(0, -2)}xx`);
    expect((await fetch(url)).status).toBe(403);
    const other = await completedExport(admin);
    expect((await fetch(`${system.url}${location.replace(data.id, other)}`)).status).toBe(403);
  });

  it("answer 409 export_not_ready until completed, and 404 to another family ('download returns conflict when not ready')", async () => {
    const { familyId } = await system.db.gateway.membership.findUniqueOrThrow({ where: { userId: admin.id } });
    const failed = await system.db.finance.familyExport.create({ data: { familyId, status: "failed" } });
    const res = await api.get(`/api/v1/family_exports/${failed.id}/download`, { apiKey: admin.readKey });
    expect(res.status).toBe(409);
    expect(res.body).toMatchObject({ error: "export_not_ready", message: "Export is not ready for download" });

    const stranger = await signUpUser(api, "stranger");
    const theirs = await completedExport(stranger);
    expect((await api.get(`/api/v1/family_exports/${theirs}`, { apiKey: admin.readKey })).status).toBe(404);
    expect((await api.get(`/api/v1/family_exports/${theirs}/download`, { apiKey: admin.readKey })).status).toBe(404);
  });

  it("keep a family's three newest ended exports: a fourth completing lets the oldest go, its archive with it", async () => {
    const keeper = await signUpUser(api, "keeper");
    const made: string[] = [];
    for (let i = 0; i < 3; i++) made.push(await completedExport(keeper));
    // Ended a while ago: one ended in the last minutes stays (a download of it may be streaming).
    await system.db.finance.familyExport.updateMany({ where: { id: { in: made } }, data: { completedAt: new Date(Date.now() - 3_600_000) } });
    made.push(await completedExport(keeper));
    const listed = FamilyExportCollectionSchema.parse((await api.get("/api/v1/family_exports", { apiKey: keeper.readKey })).body);
    expect(listed.data.map((e) => e.id)).toEqual(made.slice(1).reverse());
    expect((await api.get(`/api/v1/family_exports/${made[0]}`, { apiKey: keeper.readKey })).status).toBe(404);
    expect(await system.db.finance.familyExportChunk.count({ where: { exportId: made[0]! } })).toBe(0);
  });

  it("are deleted by an admin with their archive (204); 409 while one is built, 404 for another family's, 403 for a member", async () => {
    const owner = await signUpUser(api, "deleter");
    const done = await completedExport(owner);
    expect((await api.delete(`/api/v1/family_exports/${done}`, { apiKey: admin.writeKey })).status).toBe(404);
    expect((await api.delete(`/api/v1/family_exports/${done}`, { apiKey: owner.readKey })).status).toBe(403);
    expect((await api.delete(`/api/v1/family_exports/${done}`, { apiKey: owner.writeKey })).status).toBe(204);
    expect((await api.get(`/api/v1/family_exports/${done}`, { apiKey: owner.readKey })).status).toBe(404);
    expect(await system.db.finance.familyExportChunk.count({ where: { exportId: done } })).toBe(0);

    // One being built: not deleted under it.
    const { familyId } = await system.db.gateway.membership.findUniqueOrThrow({ where: { userId: owner.id } });
    const building = await system.db.finance.familyExport.create({ data: { familyId, status: "processing" } });
    const refused = await api.delete(`/api/v1/family_exports/${building.id}`, { apiKey: owner.writeKey });
    expect(refused.status).toBe(409);
    expect(refused.body).toMatchObject({ error: "conflict", message: "The export is being built: delete it once it has completed or failed" });
    await system.db.finance.familyExport.delete({ where: { id: building.id } });
    expect((await api.delete(`/api/v1/family_exports/${building.id}`, { token: memberToken })).status).toBe(403);
  });

  it("serve a signed link three times, each download counted against the key that asked for it", async () => {
    const id = await completedExport(admin);
    const download = await fetch(`${system.url}/api/v1/family_exports/${id}/download`, { headers: { "x-api-key": admin.readKey }, redirect: "manual" });
    const location = download.headers.get("location") ?? "";
    const counted = async () => ApiKeyUsageSchema.parse((await api.get("/api/v1/usage", { apiKey: admin.readKey })).body).rate_limit.current_count;
    const before = await counted();
    // A HEAD (a link preview, a download manager probing) costs the link none of its three.
    expect((await fetch(`${system.url}${location}`, { method: "HEAD" })).status).toBe(200);
    for (let i = 0; i < 3; i++) {
      const file = await fetch(`${system.url}${location}`);
      expect(file.status).toBe(200);
      await file.arrayBuffer();
    }
    // The HEAD, three downloads and this usage request.
    expect(await counted()).toBe(before + 5);
    const fourth = await fetch(`${system.url}${location}`);
    expect(fourth.status).toBe(403);
    expect(await fourth.json()).toMatchObject({ error: "forbidden", message: "The download link has served its 3 downloads: ask /download for a new one" });
    // A new link serves again.
    const again = await fetch(`${system.url}/api/v1/family_exports/${id}/download`, { headers: { "x-api-key": admin.readKey }, redirect: "manual" });
    expect((await fetch(`${system.url}${again.headers.get("location") ?? ""}`)).status).toBe(200);
  });

  it("stop serving a signed link once its credential no longer grants it: a key revoked, a session logged out", async () => {
    const owner = await signUpUser(api, "link-owner");
    const id = await completedExport(owner);
    const linkFor = async (headers: Record<string, string>) =>
      (await fetch(`${system.url}/api/v1/family_exports/${id}/download`, { headers, redirect: "manual" })).headers.get("location") ?? "";

    const key = await api.post("/api/v1/api_keys", { api_key: { name: "download", scopes: ["read"] } }, { token: owner.accessToken });
    const byKey = await linkFor({ "x-api-key": key.body.key as string });
    expect((await fetch(`${system.url}${byKey}`, { method: "HEAD" })).status).toBe(200);
    expect((await api.delete(`/api/v1/api_keys/${key.body.id}`, { token: owner.accessToken })).status).toBe(204);
    const revoked = await fetch(`${system.url}${byKey}`);
    expect(revoked.status).toBe(403);
    expect(await revoked.json()).toMatchObject({ error: "forbidden", message: "The download link's credential no longer grants this export" });

    const bySession = await linkFor({ authorization: `Bearer ${owner.accessToken}` });
    expect((await fetch(`${system.url}${bySession}`, { method: "HEAD" })).status).toBe(200);
    expect((await api.post("/api/v1/auth/logout", undefined, { token: owner.accessToken })).status).toBeLessThan(300);
    expect((await fetch(`${system.url}${bySession}`)).status).toBe(403);
  });
});
