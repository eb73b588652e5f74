import type { FinanceDb, FinanceTx } from "../db";
import { Prisma, type AccountStatus, type AccountType } from "../generated/prisma/client";
import { classificationOf } from "../balances/balance-calculator";
import { addDays, dateOf, isoDateOf } from "../ledger/dates";
import { applyRulesToImportedEntries } from "../rules/rules-on-create";
import { risingIds } from "../rules/rising-id-sql";
import { requestAccountSync } from "../syncs/sync-queue-queries";
import type { StartedProviderSync } from "./provider-sync-queries";
import type { BridgeAccount, BridgeAnswer } from "./simplefin-payload";

/** Entries a SimpleFIN sync writes carry this source (with Sure's `simplefin_<id>` external id). */
export const SIMPLEFIN_SOURCE = "simplefin";

/** What a completed sync found and wrote; kept on the run (Sure's sync_stats) for the status summary. */
export interface ProviderSyncStats {
  total_accounts: number;
  linked_accounts: number;
  unlinked_accounts: number;
  accounts_created: number;
  transactions: number;
  skipped_duplicates: number;
  skipped_pending: number;
  skipped_invalid: number;
  skipped_accounts: number;
  bridge_errors: number;
}

/** The run ended meanwhile, or went with its connection (deleted): nothing it wrote stays. */
export class ProviderSyncGone extends Error {
  constructor() {
    super("the provider sync ended or was deleted while it ran");
    this.name = "ProviderSyncGone";
  }
}

interface LinkedAccount {
  id: string;
  status: AccountStatus;
  accountType: AccountType;
  currency: string;
  created: boolean;
}

/**
 * The family's account a bridge account writes into: the linked one, or a new one the first
 * time the bridge reports it (named as the bank names it). Null when it is unlinked: its account
 * was deleted (a later sync does not make it again) or its currency is none the ledger knows.
 */
async function linkedAccountOf(tx: FinanceTx, claim: StartedProviderSync, bridge: BridgeAccount): Promise<LinkedAccount | null> {
  const existing = await tx.providerAccount.findUnique({
    where: { connectionId_externalId: { connectionId: claim.connectionId, externalId: bridge.externalId } },
    select: { id: true, name: true, account: { select: { id: true, status: true, accountType: true, currency: true } } },
  });
  if (existing) {
    if (existing.name !== bridge.name) await tx.providerAccount.update({ where: { id: existing.id }, data: { name: bridge.name } });
    const account = existing.account;
    return account && account.status !== "pending_deletion" ? { ...account, created: false } : null;
  }
  const account =
    bridge.currency === null
      ? null
      : await tx.account.create({
          data: {
            familyId: claim.familyId,
            name: bridge.name,
            accountType: bridge.accountType,
            classification: classificationOf(bridge.accountType),
            currency: bridge.currency,
            institutionName: bridge.institution.name,
            institutionDomain: bridge.institution.domain,
            // Shown until the queued sync computes it (the same figure): both types are all cash.
            balanceCents: bridge.balanceCents ?? 0n,
            cashBalanceCents: bridge.balanceCents ?? 0n,
          },
          select: { id: true, status: true, accountType: true, currency: true },
        });
  await tx.providerAccount.create({
    data: {
      familyId: claim.familyId,
      connectionId: claim.connectionId,
      externalId: bridge.externalId,
      name: bridge.name,
      currency: bridge.bridgeCurrency,
      accountId: account?.id ?? null,
    },
  });
  return account ? { ...account, created: true } : null;
}

/** Writes the account's posted transactions once each (the entries' unique account, source and external id); the dates of those written. */
async function insertTransactions(tx: FinanceTx, claim: StartedProviderSync, accountId: string, bridge: BridgeAccount, currency: string): Promise<string[]> {
  const rows = bridge.transactions;
  if (rows.length === 0) return [];
  const ids = risingIds();
  const written = await tx.$queryRaw<{ date: Date }[]>`
    INSERT INTO entries (id, family_id, account_id, kind, transaction_kind, date, name, amount_cents, currency, notes, external_id, source, import_id, created_at, updated_at)
    SELECT ${ids(Prisma.sql`i.ordinal`)}, ${claim.familyId}::uuid, ${accountId}::uuid, 'transaction', 'standard', i.date::date, i.name, i.amount::bigint,
           ${currency}, i.notes, i.external_id, ${SIMPLEFIN_SOURCE}, ${claim.id}::uuid, now(), now()
      FROM unnest(${rows.map((row) => row.externalId)}::text[], ${rows.map((row) => row.date)}::text[], ${rows.map((row) => row.amountCents.toString())}::text[],
                  ${rows.map((row) => row.name)}::text[], ${rows.map((row) => row.notes)}::text[])
           WITH ORDINALITY AS i(external_id, date, amount, name, notes, ordinal)
     ORDER BY i.ordinal
    ON CONFLICT (account_id, source, external_id) WHERE external_id IS NOT NULL DO NOTHING
    RETURNING date`;
  return written.map((row) => isoDateOf(row.date));
}

/**
 * Makes the account's computed balance on the bank's balance date the bank's balance: the
 * opening anchor is what the balance was before the account's transactions up to that day
 * (an asset's transactions lower it by their amount, a liability's raise it). True when the
 * anchor was made or changed, so every day must be computed again.
 */
async function anchorBalance(tx: FinanceTx, familyId: string, account: LinkedAccount, bridge: BridgeAccount & { balanceCents: bigint }): Promise<boolean> {
  const [flows] = await tx.$queryRaw<{ total: bigint | null; first: Date | null }[]>`
    SELECT (sum(amount_cents) FILTER (WHERE date <= ${bridge.balanceDate}::date AND currency = ${account.currency}))::bigint AS total, min(date) AS first
      FROM entries WHERE account_id = ${account.id}::uuid AND kind = 'transaction'`;
  const factor = classificationOf(account.accountType) === "asset" ? 1n : -1n;
  const opening = bridge.balanceCents + factor * (flows?.total ?? 0n);
  const anchor = await tx.entry.findFirst({
    where: { accountId: account.id, kind: "valuation", valuationKind: "opening_anchor" },
    select: { id: true, amountCents: true },
  });
  if (anchor) {
    if (anchor.amountCents === opening) return false;
    await tx.entry.update({ where: { id: anchor.id }, data: { amountCents: opening } });
    return true;
  }
  // Before every transaction (the materializer keeps it there as older ones arrive).
  const date = flows?.first ? addDays(isoDateOf(flows.first), -1) : bridge.balanceDate;
  await tx.entry.create({
    data: {
      familyId,
      accountId: account.id,
      kind: "valuation",
      valuationKind: "opening_anchor",
      date: dateOf(date),
      name: "Opening balance",
      amountCents: opening,
      currency: account.currency,
    },
  });
  return true;
}

/** Sure's upsert_institution_data!: the bank of the first account that names one. */
function institutionOf(answer: BridgeAnswer) {
  const named = answer.accounts.find((account) => account.institution.name || account.institution.domain);
  return named ? { institutionName: named.institution.name, institutionDomain: named.institution.domain, institutionUrl: named.institution.url } : {};
}

/**
 * Writes what the bridge answered in one transaction, ended by `fence` (the job's end: nothing is
 * kept when the job is no longer this worker's):
 * accounts linked (or made), transactions written once (through the import path: the family's
 * rules apply to them, duplicates are skipped), opening balances anchored to the bank's balances,
 * balance syncs queued, and the run completed with its counts. All of it, or nothing.
 */
export async function writeBridgeAnswer(
  db: FinanceDb,
  claim: StartedProviderSync,
  answer: BridgeAnswer,
  fence: (tx: FinanceTx) => Promise<void>,
): Promise<ProviderSyncStats> {
  return db.$transaction(
    async (tx) => {
      const stats: ProviderSyncStats = {
        total_accounts: answer.accounts.length,
        linked_accounts: 0,
        unlinked_accounts: 0,
        accounts_created: 0,
        transactions: 0,
        skipped_duplicates: 0,
        skipped_pending: 0,
        skipped_invalid: 0,
        skipped_accounts: answer.skippedAccounts,
        bridge_errors: answer.errorCount,
      };
      for (const bridge of answer.accounts) {
        const account = await linkedAccountOf(tx, claim, bridge);
        if (!account) {
          stats.unlinked_accounts += 1;
          continue;
        }
        stats.linked_accounts += 1;
        if (account.created) stats.accounts_created += 1;
        // A disabled account stays linked but takes nothing until it is enabled again.
        if (account.status === "disabled") continue;
        const dates = await insertTransactions(tx, claim, account.id, bridge, bridge.currency ?? account.currency);
        stats.transactions += dates.length;
        stats.skipped_duplicates += bridge.transactions.length - dates.length;
        stats.skipped_pending += bridge.skippedPending;
        stats.skipped_invalid += bridge.skippedInvalid;
        const balanceCents = bridge.balanceCents;
        const anchorChanged = balanceCents !== null && (await anchorBalance(tx, claim.familyId, account, { ...bridge, balanceCents }));
        const earliest = dates.reduce<string | null>((first, date) => (first === null || date < first ? date : first), null);
        if (anchorChanged) await requestAccountSync(tx, claim.familyId, account.id, null);
        else if (earliest !== null) await requestAccountSync(tx, claim.familyId, account.id, earliest);
      }
      // The run's id marks what it wrote (entries.import_id), as an import's does.
      if (stats.transactions > 0) await applyRulesToImportedEntries(tx, claim.familyId, claim.id);
      const completed = await tx.providerSync.updateMany({
        where: { id: claim.id, status: "syncing" },
        data: { status: "completed", stats: { ...stats }, error: null, completedAt: new Date() },
      });
      if (completed.count !== 1) throw new ProviderSyncGone();
      await tx.providerConnection.updateMany({ where: { id: claim.connectionId }, data: { status: "good", ...institutionOf(answer) } });
      await fence(tx);
      return stats;
    },
    // A first sync of several accounts writes thousands of rows.
    { timeout: 120_000, maxWait: 30_000 },
  );
}
