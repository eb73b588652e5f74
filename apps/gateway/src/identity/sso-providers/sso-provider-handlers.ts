import { AppError, type Actor, type AuditChanges, type AuditEventType } from "@hearth/contracts";
import { isUniqueViolation, type SecretBox } from "@hearth/service-kit";
import { FILTERED, type EventRequestFacts } from "../audit/identity-event";
import type { Transaction, WithIdentityEvents } from "../audit/identity-events";
import { requireActor, type LocalHandler } from "../local-handlers";
import type { OidcClient } from "../sso/oidc-client";
import type { SsoFlows } from "../sso/sso-flows";
import type { UserRepository } from "../users/user-repository";
import type { SsoProviderChanges, SsoProviderRepository } from "./sso-provider-repository";
import { toSsoProviderResource } from "./sso-provider-resource";

export interface SsoProviderHandlerDeps {
  providers: SsoProviderRepository;
  users: UserRepository;
  box: SecretBox;
  flows: SsoFlows;
  /** Judges an issuer before it is saved: scheme, form, and where its host resolves to. */
  oidc: Pick<OidcClient, "issuerProblem">;
  withIdentityEvents: WithIdentityEvents;
}

/** They go into every authorization URL; real ones are a few words. */
const MAX_SCOPES_LENGTH = 1000;

/** The public fields an update may change, with the column each is stored in. */
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

/** A change to a provider, with the event that records it; null when nothing changed. */
type ProviderChange<T> = { result: T; provider: { id: string; name: string }; event: AuditEventType; changes?: AuditChanges } | null;

/** Family admins manage their SSO providers; every change is audited (provider.*). */
export function createSsoProviderHandlers({ providers, users, box, flows, oidc, withIdentityEvents }: SsoProviderHandlerDeps) {
  /** 422 naming the field, before anything is saved or fetched. */
  async function assertAcceptable(settings: { issuer?: string | undefined; scopes?: string | undefined }) {
    const problems: string[] = [];
    const issuerProblem = settings.issuer === undefined ? null : await oidc.issuerProblem(settings.issuer);
    if (issuerProblem) problems.push(issuerProblem);
    if (settings.scopes !== undefined && settings.scopes.length > MAX_SCOPES_LENGTH)
      problems.push(`Scopes is too long (maximum is ${MAX_SCOPES_LENGTH} characters)`);
    if (problems.length > 0) throw AppError.validation(problems);
  }

  /** Runs a change and its audit event in one transaction; a taken name is 422. */
  async function audited<T>(actor: Actor, request: EventRequestFacts, change: (tx: Transaction) => Promise<ProviderChange<T>>): Promise<T | null> {
    try {
      const outcome = await withIdentityEvents(request, async (tx, record) => {
        const done = await change(tx);
        if (!done) return null;
        record(done.event, {
          familyId: actor.familyId,
          user: await users.findRef(tx, actor.userId),
          sessionId: actor.sessionId ?? null,
          provider: done.provider.name,
          providerId: done.provider.id,
          ...(done.changes ? { changes: done.changes } : {}),
        });
        return done;
      });
      return outcome?.result ?? null;
    } catch (err) {
      if (isUniqueViolation(err)) throw AppError.taken("Name");
      throw err;
    }
  }

  const list: LocalHandler<"ssoProviders.list"> = async ({ actor }) => ({
    sso_providers: (await providers.list(requireActor(actor).familyId)).map(toSsoProviderResource),
  });

  const get: LocalHandler<"ssoProviders.get"> = async ({ actor, input }) => toSsoProviderResource(await providers.find(requireActor(actor).familyId, input.id));

  const create: LocalHandler<"ssoProviders.create"> = async ({ actor, input, request }) => {
    const who = requireActor(actor);
    await assertAcceptable(input.sso_provider);
    const created = await audited(who, request, async (tx) => {
      const row = await providers.create(tx, who.familyId, input.sso_provider, box.seal(input.sso_provider.client_secret));
      return { result: row, provider: row, event: "provider.created" };
    });
    if (!created) throw new Error("provider creation recorded no result"); // create always answers a row
    return toSsoProviderResource(created);
  };

  const update: LocalHandler<"ssoProviders.update"> = async ({ actor, input, request }) => {
    const who = requireActor(actor);
    const wanted = input.sso_provider;
    await assertAcceptable(wanted);
    const updated = await audited(who, request, async (tx) => {
      const row = await providers.find(who.familyId, input.id, tx);
      const changes: AuditChanges = {};
      const data: SsoProviderChanges = {};
      for (const [field, column] of FIELDS) {
        const next = wanted[field];
        if (next === undefined || JSON.stringify(next) === JSON.stringify(row[column])) continue;
        Object.assign(data, { [column]: next });
        changes[field] = { old: row[column], new: next };
      }
      if (wanted.client_secret !== undefined) {
        data.clientSecret = box.seal(wanted.client_secret);
        changes["client_secret"] = { old: FILTERED, new: FILTERED };
      }
      if (Object.keys(changes).length === 0) return null;
      const saved = await providers.update(tx, row.id, data);
      return { result: saved, provider: saved, event: "provider.updated", changes };
    });
    return toSsoProviderResource(updated ?? (await providers.find(who.familyId, input.id)));
  };

  const setEnabled =
    (enabled: boolean): LocalHandler<"ssoProviders.enable" | "ssoProviders.disable"> =>
    async ({ actor, input, request }) => {
      const who = requireActor(actor);
      const changed = await audited(who, request, async (tx) => {
        const row = await providers.find(who.familyId, input.id, tx);
        if (row.enabled === enabled) return null;
        const saved = await providers.setEnabled(tx, row.id, enabled);
        return {
          result: saved,
          provider: saved,
          event: enabled ? "provider.enabled" : "provider.disabled",
          changes: { enabled: { old: !enabled, new: enabled } },
        };
      });
      return toSsoProviderResource(changed ?? (await providers.find(who.familyId, input.id)));
    };

  const remove: LocalHandler<"ssoProviders.delete"> = async ({ actor, input, request }) => {
    const who = requireActor(actor);
    await audited(who, request, async (tx) => {
      const row = await providers.find(who.familyId, input.id, tx);
      await providers.delete(tx, row.id);
      return { result: true, provider: row, event: "provider.deleted" };
    });
  };

  /** Starts a sign-in that only checks the provider works; the callback records provider.test. */
  const test: LocalHandler<"ssoProviders.test"> = async ({ actor, input, request }) => {
    const who = requireActor(actor);
    const row = await providers.find(who.familyId, input.id);
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
