import { AppError, type AuditChanges } from "@hearth/contracts";
import { isUniqueViolation } from "@hearth/service-kit";
import type { IdentityDb, IdentityTx } from "../db";
import type { SecretBox } from "../crypto/secret-box";
import { FILTERED, recordIdentityEvent } from "../events/identity-events";
import { requireActor, type LocalHandler, type RequestFacts } from "../local-handlers";
import { providerResource, type ProviderRow } from "./provider-resource";
import type { SsoFlows } from "./sso-flows";

export interface ProviderHandlerDeps {
  db: IdentityDb;
  box: SecretBox;
  flows: SsoFlows;
  onEventsWritten: () => void;
}

const NAME_TAKEN = AppError.validation(["Name has already been taken"]);

/** The columns an update may change, with the public field each is known by. */
const FIELDS = [
  ["name", "name"],
  ["issuer", "issuer"],
  ["client_id", "clientId"],
  ["scopes", "scopes"],
  ["allow_account_creation", "allowAccountCreation"],
  ["default_role", "defaultRole"],
  ["role_claim", "roleClaim"],
  ["admin_claim_values", "adminClaimValues"],
] as const;

/** Family admins manage their SSO providers; every change is audited (provider.*). */
export function createProviderHandlers({ db, box, flows, onEventsWritten }: ProviderHandlerDeps) {
  async function providerOf(tx: IdentityTx | IdentityDb, familyId: string, id: string): Promise<ProviderRow> {
    const row = await tx.ssoProvider.findFirst({ where: { id, familyId } });
    if (!row) throw AppError.notFound("SSO provider");
    return row;
  }

  /** Runs a change and its audit event in one transaction; a taken name is 422. */
  async function audited<T>(
    actor: ReturnType<typeof requireActor>,
    request: RequestFacts,
    change: (
      tx: IdentityTx,
    ) => Promise<{ result: T; provider: { id: string; name: string }; event: Parameters<typeof recordIdentityEvent>[1]; changes?: AuditChanges } | null>,
  ): Promise<T | null> {
    try {
      const outcome = await db.$transaction(async (tx) => {
        const done = await change(tx);
        if (!done) return null;
        const user = await tx.user.findUniqueOrThrow({ where: { id: actor.userId }, select: { id: true, email: true } });
        await recordIdentityEvent(tx, done.event, {
          familyId: actor.familyId,
          user,
          request,
          sessionId: actor.sessionId ?? null,
          provider: done.provider.name,
          providerId: done.provider.id,
          ...(done.changes ? { changes: done.changes } : {}),
        });
        return done;
      });
      if (outcome) onEventsWritten();
      return outcome?.result ?? null;
    } catch (err) {
      if (isUniqueViolation(err)) throw NAME_TAKEN;
      throw err;
    }
  }

  const list: LocalHandler<"ssoProviders.list"> = async ({ actor }) => {
    const rows = await db.ssoProvider.findMany({ where: { familyId: requireActor(actor).familyId }, orderBy: { createdAt: "asc" } });
    return { sso_providers: rows.map(providerResource) };
  };

  const get: LocalHandler<"ssoProviders.get"> = async ({ actor, input }) => providerResource(await providerOf(db, requireActor(actor).familyId, input.id));

  const create: LocalHandler<"ssoProviders.create"> = async ({ actor, input, request }) => {
    const who = requireActor(actor);
    const p = input.sso_provider;
    const created = await audited(who, request, async (tx) => {
      const row = await tx.ssoProvider.create({
        data: {
          familyId: who.familyId,
          name: p.name,
          issuer: p.issuer,
          clientId: p.client_id,
          clientSecret: box.seal(p.client_secret),
          scopes: p.scopes,
          enabled: p.enabled,
          allowAccountCreation: p.allow_account_creation,
          defaultRole: p.default_role,
          roleClaim: p.role_claim,
          adminClaimValues: p.admin_claim_values,
        },
      });
      return { result: row, provider: row, event: "provider.created" };
    });
    if (!created) throw new Error("provider creation recorded no result"); // create always answers a row
    return providerResource(created);
  };

  const update: LocalHandler<"ssoProviders.update"> = async ({ actor, input, request }) => {
    const who = requireActor(actor);
    const wanted = input.sso_provider;
    const updated = await audited(who, request, async (tx) => {
      const row = await providerOf(tx, who.familyId, input.id);
      const changes: AuditChanges = {};
      const data: Record<string, unknown> = {};
      for (const [field, column] of FIELDS) {
        const next = wanted[field];
        if (next === undefined || JSON.stringify(next) === JSON.stringify(row[column])) continue;
        data[column] = next;
        changes[field] = { old: row[column], new: next };
      }
      if (wanted.client_secret !== undefined) {
        data["clientSecret"] = box.seal(wanted.client_secret);
        changes["client_secret"] = { old: FILTERED, new: FILTERED };
      }
      if (Object.keys(changes).length === 0) return null;
      const saved = await tx.ssoProvider.update({ where: { id: row.id }, data });
      return { result: saved, provider: saved, event: "provider.updated", changes };
    });
    return providerResource(updated ?? (await providerOf(db, who.familyId, input.id)));
  };

  const setEnabled =
    (enabled: boolean): LocalHandler<"ssoProviders.enable" | "ssoProviders.disable"> =>
    async ({ actor, input, request }) => {
      const who = requireActor(actor);
      const changed = await audited(who, request, async (tx) => {
        const row = await providerOf(tx, who.familyId, input.id);
        if (row.enabled === enabled) return null;
        const saved = await tx.ssoProvider.update({ where: { id: row.id }, data: { enabled } });
        return {
          result: saved,
          provider: saved,
          event: enabled ? "provider.enabled" : "provider.disabled",
          changes: { enabled: { old: !enabled, new: enabled } },
        };
      });
      return providerResource(changed ?? (await providerOf(db, who.familyId, input.id)));
    };

  const remove: LocalHandler<"ssoProviders.delete"> = async ({ actor, input, request }) => {
    const who = requireActor(actor);
    await audited(who, request, async (tx) => {
      const row = await providerOf(tx, who.familyId, input.id);
      await tx.ssoProvider.delete({ where: { id: row.id } });
      return { result: true, provider: row, event: "provider.deleted" };
    });
  };

  /** Starts a sign-in that only checks the provider works; the callback records provider.test. */
  const test: LocalHandler<"ssoProviders.test"> = async ({ actor, input, request }) => {
    const who = requireActor(actor);
    const row = await providerOf(db, who.familyId, input.id);
    return flows.start(row, { purpose: "test", appRedirectUri: input.redirect_uri, startedById: who.userId, device: null }, request);
  };

  return {
    "ssoProviders.list": list,
    "ssoProviders.get": get,
    "ssoProviders.create": create,
    "ssoProviders.update": update,
    "ssoProviders.enable": setEnabled(true),
    "ssoProviders.disable": setEnabled(false),
    "ssoProviders.delete": remove,
    "ssoProviders.test": test,
  };
}
