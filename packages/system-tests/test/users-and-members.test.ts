import { randomBytes } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { testPostgresAdminUrl } from "@hearth/test-kit";
import {
  DEVICE,
  SECOND_DEVICE,
  TEST_PASSWORD,
  apiClient,
  expectAuditEntries,
  logIn,
  signUpUser,
  startSystem,
  type ApiClient,
  type TestSystem,
  type TestUser,
} from "../src";

let system: TestSystem;
let api: ApiClient;

beforeAll(async () => {
  system = await startSystem({ adminUrl: testPostgresAdminUrl() });
  api = apiClient(system.url);
});
afterAll(async () => system?.stop());

interface Member {
  id: string;
  email: string;
  accessToken: string;
  refreshToken: string;
  apiKey: string;
}

/** Invites a new person into the admin's family and signs them up with the code. */
async function inviteMember(admin: TestUser, role: "admin" | "member" = "member"): Promise<Member> {
  const email = `member-${randomBytes(4).toString("hex")}@example.com`;
  const invite = await api.post("/api/v1/invitations", { invitation: { email, role } }, { token: admin.accessToken });
  expect(invite.status).toBe(201);
  const signup = await api.post("/api/v1/auth/signup", { user: { email, password: TEST_PASSWORD }, device: DEVICE, invite_code: invite.body.invite_code });
  expect(signup.status).toBe(201);
  const key = await api.post("/api/v1/api_keys", { api_key: { name: "k", scopes: ["read_write"] } }, { token: signup.body.access_token });
  return { id: signup.body.user.id, email, accessToken: signup.body.access_token, refreshToken: signup.body.refresh_token, apiKey: key.body.key };
}

describe("invitations", () => {
  it("let an admin bring people into the family in a role; the code works once, for its email only", async () => {
    const admin = await signUpUser(api, "inviter");
    const auth = { token: admin.accessToken };
    const email = `invitee-${randomBytes(4).toString("hex")}@example.com`;
    const invite = await api.post("/api/v1/invitations", { invitation: { email: email.toUpperCase() } }, auth);
    expect(invite.status).toBe(201);
    expect(invite.body).toMatchObject({ email, role: "member", accepted_at: null, invite_code: expect.stringMatching(/^hinv_/) });

    const wrongEmail = await api.post("/api/v1/auth/signup", {
      user: { email: `x${email}`, password: TEST_PASSWORD },
      device: DEVICE,
      invite_code: invite.body.invite_code,
    });
    expect(wrongEmail.status).toBe(403);
    // Sure's sentence in `error` (its mobile app shows it); the spec's message and code beside it.
    expect(wrongEmail.body).toMatchObject({ error: "Invalid invite code", message: "Invalid invite code", code: "forbidden" });

    const joined = await api.post("/api/v1/auth/signup", { user: { email, password: TEST_PASSWORD }, device: DEVICE, invite_code: invite.body.invite_code });
    expect(joined.status).toBe(201);
    const members = await api.get("/api/v1/users", auth);
    expect(members.body.users.map((user: { email: string; role: string }) => [user.email, user.role])).toEqual([
      [admin.email, "admin"],
      [email, "member"],
    ]);
    // The member sees the family's data: the same members list.
    expect((await api.get("/api/v1/users", { token: joined.body.access_token })).body.users).toHaveLength(2);

    const again = await api.post("/api/v1/auth/signup", {
      user: { email: `again-${email}`, password: TEST_PASSWORD },
      device: DEVICE,
      invite_code: invite.body.invite_code,
    });
    expect(again.status).toBe(403);
    const listed = await api.get("/api/v1/invitations", auth);
    expect(listed.body.invitations).toEqual([expect.objectContaining({ id: invite.body.id, accepted_at: expect.any(String) })]);
    expect(JSON.stringify(listed.body)).not.toContain(invite.body.invite_code);
  });

  it("are an admin's business: a member gets 403, an API key 403, and a taken email 422", async () => {
    const admin = await signUpUser(api, "inviter2");
    const member = await inviteMember(admin);
    const body = { invitation: { email: "someone@example.com" } };
    expect((await api.post("/api/v1/invitations", body, { token: member.accessToken })).status).toBe(403);
    expect((await api.post("/api/v1/invitations", body, { apiKey: admin.writeKey })).status).toBe(403);
    expect((await api.get("/api/v1/invitations", { token: member.accessToken })).status).toBe(403);
    const taken = await api.post("/api/v1/invitations", { invitation: { email: member.email } }, { token: admin.accessToken });
    expect(taken.status).toBe(422);

    const pending = await api.post("/api/v1/invitations", body, { token: admin.accessToken });
    const other = await signUpUser(api, "other-family");
    expect((await api.delete(`/api/v1/invitations/${pending.body.id}`, { token: other.accessToken })).status).toBe(404);
    expect((await api.delete(`/api/v1/invitations/${pending.body.id}`, { token: admin.accessToken })).status).toBe(204);
    const withdrawn = await api.post("/api/v1/auth/signup", {
      user: { email: "someone@example.com", password: TEST_PASSWORD },
      device: DEVICE,
      invite_code: pending.body.invite_code,
    });
    expect(withdrawn.status).toBe(403);
  });
});

describe("profile", () => {
  it("updates names and layout, recording each change as {old, new}", async () => {
    const user = await signUpUser(api, "profile");
    const res = await api.patch("/api/v1/users/me", { user: { first_name: "Ada", ui_layout: "intro" } }, { token: user.accessToken });
    expect(res.status).toBe(200);
    expect(res.body.user).toMatchObject({ first_name: "Ada", ui_layout: "intro" });
    const [entry] = await expectAuditEntries(api, user.accessToken, "eventType=user.updated", 1);
    expect(entry).toMatchObject({
      severity: "info",
      user: { id: user.id },
      changes: { first_name: { old: "Test", new: "Ada" }, ui_layout: { old: "dashboard", new: "intro" } },
    });
  });

  it("changes email and password only with the current password; a new password ends the other sessions", async () => {
    const user = await signUpUser(api, "secrets");
    // Another device: a login on the same one would end the session used below.
    const other = await logIn(api, user.email, TEST_PASSWORD, SECOND_DEVICE);
    const newPassword = "Another-horse-7";
    expect((await api.patch("/api/v1/users/me", { user: { password: newPassword } }, { token: user.accessToken })).status).toBe(422);
    const wrong = await api.patch("/api/v1/users/me", { user: { password: newPassword, current_password: "Wrong-pass-1" } }, { token: user.accessToken });
    expect(wrong.status).toBe(422);
    expect(wrong.body.errors).toEqual(["Current password is invalid"]);

    const changed = await api.patch("/api/v1/users/me", { user: { password: newPassword, current_password: TEST_PASSWORD } }, { token: user.accessToken });
    expect(changed.status).toBe(200);
    expect((await api.get("/api/v1/users/me", { token: user.accessToken })).status).toBe(200);
    expect((await api.get("/api/v1/users/me", { token: other.body.access_token })).status).toBe(401);
    expect((await logIn(api, user.email)).status).toBe(401);
    expect((await logIn(api, user.email, newPassword, SECOND_DEVICE)).status).toBe(200);

    const email = `renamed-${randomBytes(4).toString("hex")}@example.com`;
    expect((await api.patch("/api/v1/users/me", { user: { email, current_password: newPassword } }, { token: user.accessToken })).body.user.email).toBe(email);
    const entries = await expectAuditEntries(api, user.accessToken, "eventType=user.updated", 2);
    expect(entries[0]?.changes).toEqual({ email: { old: user.email, new: email } });
    expect(entries[1]?.changes).toEqual({ password: { old: "[FILTERED]", new: "[FILTERED]" } });
    expect(JSON.stringify(entries)).not.toContain(newPassword);
  });

  it("counts current_password guesses like logins: 50 in parallel from a stolen session check at most 5, then 429", async () => {
    const user = await signUpUser(api, "guessed");
    const guesses = await Promise.all(
      Array.from({ length: 50 }, (_, i) =>
        api.patch("/api/v1/users/me", { user: { password: "Another-horse-7", current_password: `Wrong-pass-${i}` } }, { token: user.accessToken }),
      ),
    );
    const statuses = guesses.map((res) => res.status);
    expect(statuses.filter((status) => status === 422)).toHaveLength(5);
    expect(statuses.filter((status) => status === 429)).toHaveLength(45);
    // The account is locked for logins too: the same password, the same allowance.
    expect((await logIn(api, user.email)).status).toBe(429);
  });

  it("refuses an email that another user has", async () => {
    const user = await signUpUser(api, "dup1");
    const taken = await signUpUser(api, "dup2");
    const res = await api.patch("/api/v1/users/me", { user: { email: taken.email, current_password: TEST_PASSWORD } }, { token: user.accessToken });
    expect(res.status).toBe(422);
    expect(res.body.errors).toEqual(["Email has already been taken"]);
  });
});

describe("roles", () => {
  it("are changed by an admin (user.roles.updated) and take effect on the member's current token", async () => {
    const admin = await signUpUser(api, "roles");
    const member = await inviteMember(admin);
    expect((await api.get("/api/v1/invitations", { token: member.accessToken })).status).toBe(403);
    const res = await api.patch(`/api/v1/users/${member.id}/role`, { role: "admin" }, { token: admin.accessToken });
    expect(res.status).toBe(200);
    expect(res.body.user).toMatchObject({ id: member.id, role: "admin", status: "active" });
    expect((await api.get("/api/v1/invitations", { token: member.accessToken })).status).toBe(200);
    const [entry] = await expectAuditEntries(api, admin.accessToken, "eventType=user.roles.updated", 1);
    expect(entry).toMatchObject({ severity: "info", user: { id: member.id }, changes: { role: { old: "member", new: "admin" } } });
  });

  it("keep one active admin: the last one cannot step down; members and other families cannot change roles", async () => {
    const admin = await signUpUser(api, "lastadmin");
    const member = await inviteMember(admin);
    const stepDown = await api.patch(`/api/v1/users/${admin.id}/role`, { role: "member" }, { token: admin.accessToken });
    expect(stepDown.status).toBe(422);
    expect((await api.patch(`/api/v1/users/${admin.id}/role`, { role: "member" }, { token: member.accessToken })).status).toBe(403);
    const stranger = await signUpUser(api, "stranger");
    expect((await api.patch(`/api/v1/users/${member.id}/role`, { role: "admin" }, { token: stranger.accessToken })).status).toBe(404);
    expect((await api.patch(`/api/v1/users/${member.id}/role`, { role: "owner" }, { token: admin.accessToken })).status).toBe(422);
  });
});

describe("suspension", () => {
  it("stops a member's tokens and API keys at once, and reactivation lets them back in", async () => {
    const admin = await signUpUser(api, "suspender");
    const member = await inviteMember(admin);
    const suspended = await api.post(`/api/v1/users/${member.id}/suspend`, undefined, { token: admin.accessToken });
    expect(suspended.status).toBe(200);
    expect(suspended.body.user).toMatchObject({ status: "suspended" });

    expect((await api.get("/api/v1/tags", { token: member.accessToken })).status).toBe(401);
    const byKey = await api.get("/api/v1/tags", { apiKey: member.apiKey });
    expect(byKey.status).toBe(401);
    expect(byKey.body).toEqual({ error: "unauthorized", message: "Account has been deactivated" }); // Sure's BaseController
    expect((await api.post("/api/v1/auth/refresh", { refresh_token: member.refreshToken, device: { device_id: DEVICE.device_id } })).status).toBe(401);
    expect((await logIn(api, member.email)).status).toBe(401);

    const reactivated = await api.post(`/api/v1/users/${member.id}/reactivate`, undefined, { token: admin.accessToken });
    expect(reactivated.body.user).toMatchObject({ status: "active" });
    expect((await api.get("/api/v1/tags", { apiKey: member.apiKey })).status).toBe(200);
    expect((await api.get("/api/v1/tags", { token: member.accessToken })).status).toBe(401); // its session ended for good
    expect((await logIn(api, member.email)).status).toBe(200);

    const [suspendedEntry] = await expectAuditEntries(api, admin.accessToken, "eventType=user.suspended", 1);
    expect(suspendedEntry).toMatchObject({ severity: "warning", user: { id: member.id }, changes: { status: { old: "active", new: "suspended" } } });
    const [reactivatedEntry] = await expectAuditEntries(api, admin.accessToken, "eventType=user.reactivated", 1);
    expect(reactivatedEntry).toMatchObject({ severity: "info", user: { id: member.id } });
    const [failed] = await expectAuditEntries(api, admin.accessToken, `eventType=auth.login.failed&userId=${member.id}`, 1);
    expect(failed).toMatchObject({ error: "user_suspended" });
  });

  it("is an admin's act on someone else", async () => {
    const admin = await signUpUser(api, "selfsuspend");
    const member = await inviteMember(admin);
    expect((await api.post(`/api/v1/users/${admin.id}/suspend`, undefined, { token: admin.accessToken })).status).toBe(422);
    expect((await api.post(`/api/v1/users/${admin.id}/suspend`, undefined, { token: member.accessToken })).status).toBe(403);
    expect((await api.post(`/api/v1/users/${member.id}/suspend`, undefined, { apiKey: admin.writeKey })).status).toBe(403);
  });
});

describe("deleting your account", () => {
  it("needs an heir when you are the last admin of a family with members; a member leaves freely", async () => {
    const admin = await signUpUser(api, "leaver");
    const member = await inviteMember(admin);
    const refused = await api.delete("/api/v1/users/me", { token: admin.accessToken });
    expect(refused.status).toBe(422);
    expect(refused.body.errors?.[0]).toMatch(/last admin/);

    const deleted = await api.delete("/api/v1/users/me", { token: member.accessToken });
    expect(deleted.status).toBe(200);
    expect(deleted.body).toEqual({ message: "Account has been deleted" }); // Sure's users#destroy
    expect((await logIn(api, member.email)).status).toBe(401);
    expect((await api.get("/api/v1/tags", { apiKey: member.apiKey })).status).toBe(401);
    const [entry] = await expectAuditEntries(api, admin.accessToken, "eventType=user.deleted", 1);
    expect(entry).toMatchObject({ severity: "warning", user: { id: member.id, email: member.email } });
  });

  it("takes a family along when its only member leaves", async () => {
    const loner = await signUpUser(api, "loner");
    const { familyId } = await system.db.gateway.membership.findUniqueOrThrow({ where: { userId: loner.id } });
    expect((await api.delete("/api/v1/users/me", { token: loner.accessToken })).status).toBe(200);
    expect(await system.db.gateway.family.findUnique({ where: { id: familyId } })).toBeNull();
    expect((await api.delete("/api/v1/users/me", { apiKey: loner.writeKey })).status).toBe(401);
  });
});
