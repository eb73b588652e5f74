import { minorUnitDigits, type AccountType } from "@hearth/contracts";
import type { FinanceDb } from "../db";
import { Prisma } from "../generated/prisma/client";
import { dateOf } from "../ledger/dates";
import { familyCategoryNamed, INVESTMENT_CONTRIBUTIONS_CATEGORY } from "./transfer-category-queries";
import type { OutflowKind } from "./transfer-kinds";

/** Two syncs of a family may match at once and wait on its lock: more than Prisma's 2 s wait and 5 s run. */
const MATCH_TRANSACTION = { maxWait: 30_000, timeout: 120_000 } as const;

/** An outflow and an inflow that could be the two sides of one transfer. */
export interface MatchCandidate {
  outflow_id: string;
  inflow_id: string;
  inflow_account_type: AccountType;
}

/** A pair the matcher chose, with the kind its outflow takes. */
export interface ProposedPair {
  outflowId: string;
  inflowId: string;
  outflowKind: OutflowKind;
}

/** Sure's exchange_rate_tolerance: between currencies the amounts must agree within 10% at the outflow date's rate. */
export const CROSS_CURRENCY_TOLERANCE = 0.1;

/**
 * How many candidates across currencies each outflow keeps per inflow currency: its closest
 * (by days apart, then id). Sure keeps them all, but one outflow amid many similar inflows
 * (a family importing a year of card payments in two currencies) has dozens of them, and all
 * the pairs of a family run into the hundred thousands; five are plenty to find a free inflow,
 * and an outflow whose five were all taken by closer pairs gets its next ones on a later sync.
 */
export const CROSS_CURRENCY_CANDIDATES_PER_OUTFLOW = 5;

/** The lowest bigint: an amount bound below it (the largest rates and amounts) is clamped to it, not an overflow. */
const MIN_BIGINT = "-9223372036854775808";

interface CandidateScope {
  accountId: string | null;
  since: Date | null;
  windowDays: number;
}

/**
 * Pairs across currencies (Sure's second candidate query): the inflow within 10% of the outflow
 * at the family's rate on, or the latest before, the outflow's date (either way round; a stored
 * rate of 0 counts as absent), amounts compared as decimals (minor-unit sizes of the family's
 * currencies passed in); for each outflow and inflow currency, only its closest candidates.
 *
 * Built to use indexes rather than pair everything first: the outflows in scope are read through
 * their own indexes (those of the scoped account, or those touching its inflows: two branches, as
 * an outflow is in the account or pairs with an inflow of it, never both); the rate of each
 * (pair, date) is looked up once; each outflow then probes the (family, currency, date, amount)
 * index for the inflows a day apart at a time, closest days first, within the amount range the
 * tolerance allows at that rate, and stops once it has its candidates.
 */
function crossCurrencyCandidates(db: FinanceDb, familyId: string, currencies: string[], scope: CandidateScope) {
  const digits = currencies.map(minorUnitDigits);
  const { accountId, since, windowDays } = scope;
  // Outflows in scope: any outflow of the family, or, for an account, its own outflows and those
  // of other accounts that may pair with its inflows; from `since` (less the window) when given.
  const dated = since ? Prisma.sql`AND o.date >= ${since}::date - ${windowDays}::int` : Prisma.empty;
  const outflows = (accountFilter: Prisma.Sql, inflowAccount: string | null) => Prisma.sql`
        SELECT o.id, o.account_id, o.date, o.currency, o.amount_cents, so.digits, ${inflowAccount}::uuid AS inflow_account
          FROM entries o
          JOIN scale so ON so.currency = o.currency
         WHERE o.family_id = ${familyId}::uuid AND o.kind = 'transaction' AND o.amount_cents > 0 AND NOT o.excluded ${accountFilter} ${dated}
           AND o.account_id = ANY((SELECT ids FROM live)::uuid[]) AND o.fee_of_transfer_id IS NULL
           AND NOT EXISTS (SELECT 1 FROM transfers t WHERE t.inflow_entry_id = o.id)
           AND NOT EXISTS (SELECT 1 FROM transfers t WHERE t.outflow_entry_id = o.id)`;
  const inScope =
    accountId === null
      ? outflows(Prisma.empty, null)
      : Prisma.sql`${outflows(Prisma.sql`AND o.account_id = ${accountId}::uuid`, null)}
        UNION ALL
        ${outflows(
          Prisma.sql`AND o.account_id <> ${accountId}::uuid
             AND EXISTS (SELECT 1 FROM entries i WHERE i.account_id = ${accountId}::uuid AND i.amount_cents < 0
                            AND i.date BETWEEN o.date - ${windowDays}::int AND o.date + ${windowDays}::int)`,
          accountId,
        )}`;
  const sinceEither = since ? Prisma.sql`AND (o.date >= ${since}::date OR i.date >= ${since}::date)` : Prisma.empty;
  return db.$queryRaw<(MatchCandidate & { apart: number })[]>`
      WITH scale AS (SELECT * FROM unnest(${currencies}::text[], ${digits}::int[]) AS s(currency, digits)),
      live AS (SELECT array_agg(id) AS ids FROM accounts WHERE family_id = ${familyId}::uuid AND status IN ('active', 'draft')),
      outs AS MATERIALIZED (${inScope}),
      -- The rate of each (pair, outflow date), once: the latest on or before the date, a direct one winning the day.
      rates AS MATERIALIZED (
        SELECT n.from_currency, n.to_currency, n.date, x.rate
          FROM (SELECT DISTINCT o.currency AS from_currency, si.currency AS to_currency, o.date FROM outs o JOIN scale si ON si.currency <> o.currency) n
          JOIN LATERAL (
            SELECT y.rate FROM (
              (SELECT r.date, r.rate, 0 AS inverted FROM exchange_rates r
                WHERE r.family_id = ${familyId}::uuid AND r.from_currency = n.from_currency AND r.to_currency = n.to_currency AND r.date <= n.date AND r.rate > 0
                ORDER BY r.date DESC LIMIT 1)
              UNION ALL
              (SELECT r.date, 1 / NULLIF(r.rate, 0), 1 FROM exchange_rates r
                WHERE r.family_id = ${familyId}::uuid AND r.from_currency = n.to_currency AND r.to_currency = n.from_currency AND r.date <= n.date AND r.rate > 0
                ORDER BY r.date DESC LIMIT 1)
            ) y ORDER BY y.date DESC, y.inverted LIMIT 1) x ON true
      )
      SELECT o.id AS outflow_id, c.inflow_id, ai.account_type::text AS inflow_account_type, c.apart
        FROM outs o
        JOIN rates r ON r.from_currency = o.currency AND r.date = o.date
        JOIN scale si ON si.currency = r.to_currency
        -- The inflow amount (in its minor units, negative) the rate expects, widened by the tolerance and a unit either way.
        CROSS JOIN LATERAL (SELECT o.amount_cents * r.rate * 10::numeric ^ (si.digits - o.digits) AS expected) e
        CROSS JOIN LATERAL (
          SELECT i.id AS inflow_id, i.account_id, day.apart
            FROM (SELECT d AS apart FROM generate_series(0, ${windowDays}::int) d ORDER BY d) day
            CROSS JOIN LATERAL (
              SELECT i.id, i.account_id FROM entries i
               WHERE i.family_id = ${familyId}::uuid AND i.currency = r.to_currency
                 AND i.date = ANY(ARRAY[o.date - day.apart, o.date + day.apart])
                 AND i.amount_cents BETWEEN GREATEST(-ceil(e.expected * ${1 + CROSS_CURRENCY_TOLERANCE}::numeric) - 1, ${MIN_BIGINT}::numeric)::bigint
                                        AND GREATEST(LEAST(-floor(e.expected * ${1 - CROSS_CURRENCY_TOLERANCE}::numeric) + 1, -1), ${MIN_BIGINT}::numeric)::bigint
                 AND i.kind = 'transaction' AND NOT i.excluded AND i.account_id <> o.account_id
                 AND i.account_id = ANY((SELECT ids FROM live)::uuid[]) AND i.fee_of_transfer_id IS NULL
                 AND (o.inflow_account IS NULL OR i.account_id = o.inflow_account) ${sinceEither}
                 AND (-i.amount_cents::numeric / 10 ^ si.digits) / (o.amount_cents::numeric / 10 ^ o.digits * r.rate)
                     BETWEEN ${1 - CROSS_CURRENCY_TOLERANCE} AND ${1 + CROSS_CURRENCY_TOLERANCE}
                 AND NOT EXISTS (SELECT 1 FROM transfers t WHERE t.inflow_entry_id = i.id)
                 AND NOT EXISTS (SELECT 1 FROM transfers t WHERE t.outflow_entry_id = i.id)
                 AND NOT EXISTS (SELECT 1 FROM rejected_transfers rj WHERE rj.inflow_entry_id = i.id AND rj.outflow_entry_id = o.id)
            ) i
           ORDER BY day.apart, i.id
           LIMIT ${CROSS_CURRENCY_CANDIDATES_PER_OUTFLOW}::int) c
        JOIN accounts ai ON ai.id = c.account_id
       ORDER BY c.apart, o.id, c.inflow_id`;
}

/**
 * Pairs in one currency (Sure's first candidate query): an outflow and an inflow of the same size.
 * Driven from the inflows, the fewer side in a household's ledger (pay, refunds, money moved in),
 * whatever the planner's statistics say: the family's free inflows (from `since` less the window
 * when given; a pair dated from `since` on either side has both sides at most the window before
 * it), each probing the (family, currency, amount, date) index for the outflows of its size a few
 * days around it, with a side in a transfer ruled out by unique-index probes. For an account, the
 * pairs with either side in it. Written once as a join with an OR across the two sides, the
 * planner scanned a million entries on every account sync, and for minutes when it planned on the
 * statistics of a table still being loaded.
 */
function sameCurrencyCandidates(db: FinanceDb, familyId: string, scope: CandidateScope) {
  const { accountId, since, windowDays } = scope;
  const notInTransfer = (side: Prisma.Sql) => Prisma.sql`
        NOT EXISTS (SELECT 1 FROM transfers t WHERE t.inflow_entry_id = ${side}.id)
        AND NOT EXISTS (SELECT 1 FROM transfers t WHERE t.outflow_entry_id = ${side}.id)`;
  const from = (side: Prisma.Sql) => (since ? Prisma.sql`AND ${side}.date >= ${since}::date - ${windowDays}::int` : Prisma.empty);
  return db.$queryRaw<(MatchCandidate & { apart: number })[]>`
      WITH live AS (SELECT id, account_type FROM accounts WHERE family_id = ${familyId}::uuid AND status IN ('active', 'draft')),
      ins AS MATERIALIZED (
        SELECT i.id, i.account_id, i.date, i.currency, -i.amount_cents AS size, l.account_type
          FROM entries i JOIN live l ON l.id = i.account_id
         WHERE i.family_id = ${familyId}::uuid AND i.kind = 'transaction' AND i.amount_cents < 0 AND NOT i.excluded
           AND i.fee_of_transfer_id IS NULL ${from(Prisma.sql`i`)} AND ${notInTransfer(Prisma.sql`i`)}
      )
      SELECT o.id AS outflow_id, i.id AS inflow_id, i.account_type::text AS inflow_account_type, abs(i.date - o.date) AS apart
        FROM ins i
        CROSS JOIN LATERAL (
          SELECT o.id, o.date FROM entries o
           WHERE o.family_id = ${familyId}::uuid AND o.currency = i.currency AND o.amount_cents = i.size
             AND o.date BETWEEN i.date - ${windowDays}::int AND i.date + ${windowDays}::int
             AND o.kind = 'transaction' AND NOT o.excluded AND o.fee_of_transfer_id IS NULL AND o.account_id <> i.account_id
             AND o.account_id IN (SELECT id FROM live) AND ${notInTransfer(Prisma.sql`o`)}
             AND NOT EXISTS (SELECT 1 FROM rejected_transfers r WHERE r.inflow_entry_id = i.id AND r.outflow_entry_id = o.id)
             ${accountId ? Prisma.sql`AND (i.account_id = ${accountId}::uuid OR o.account_id = ${accountId}::uuid)` : Prisma.empty}
             ${since ? Prisma.sql`AND (o.date >= ${since}::date OR i.date >= ${since}::date)` : Prisma.empty}
        ) o`;
}

/** The transfer matcher's reads and writes. */
export function createTransferMatchQueries(db: FinanceDb) {
  return {
    /**
     * Sure's transfer_match_candidates: an outflow and an inflow in two different active or draft
     * accounts of the family (never a disabled one), neither excluded nor already in a transfer,
     * never a pair the family rejected, dated at most `windowDays` apart; of the same size in one
     * currency, or between currencies within 10% at the family's rate on (or the latest before)
     * the outflow's date (each outflow's closest few per currency: CROSS_CURRENCY_CANDIDATES_PER_OUTFLOW).
     * Closest dates first. Only pairs touching `accountId` dated from `since` when given.
     */
    async candidates(familyId: string, scope: { accountId: string | null; since: string | null; windowDays: number }): Promise<MatchCandidate[]> {
      const since = scope.since ? dateOf(scope.since) : null;
      const same = await sameCurrencyCandidates(db, familyId, { accountId: scope.accountId, since, windowDays: scope.windowDays });
      const currencies = (await db.account.findMany({ where: { familyId }, distinct: ["currency"], select: { currency: true } })).map((a) => a.currency);
      const cross =
        currencies.length < 2
          ? []
          : await crossCurrencyCandidates(db, familyId, currencies, { accountId: scope.accountId, since, windowDays: scope.windowDays });
      // Ids are lowercase UUIDs: compared as plain strings they sort as PostgreSQL sorts them.
      const byId = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);
      return [...same, ...cross]
        .sort((a, b) => a.apart - b.apart || byId(a.outflow_id, b.outflow_id) || byId(a.inflow_id, b.inflow_id))
        .map(({ outflow_id, inflow_id, inflow_account_type }) => ({ outflow_id, inflow_id, inflow_account_type }));
    },

    /**
     * Records pending transfers of the pairs (no entry in two of them) and gives both sides their
     * kinds (a contribution to an investment account without a category gets Investment
     * Contributions, as Sure's auto_match_transfers! does), in one transaction of a few statements
     * whatever the number of pairs; a pair of which a concurrent match or a user's transfer took a
     * side since the candidates were read is left out. Returns how many were recorded.
     */
    proposeAll(familyId: string, pairs: ProposedPair[]): Promise<number> {
      if (pairs.length === 0) return Promise.resolve(0);
      return db.$transaction(async (tx) => {
        // One matcher of a family records at a time: two account syncs inserting overlapping
        // pairs in different orders would otherwise deadlock on the unique sides.
        await tx.$executeRaw`SELECT pg_advisory_xact_lock(hashtext('transfer-match'), hashtext(${familyId}))`;
        // Both sides still there (and held until commit): an entry deleted since the candidates
        // were read leaves its pair out instead of failing the batch on the foreign key.
        const present = new Set(
          (
            await tx.$queryRaw<{ id: string }[]>`
              SELECT id FROM entries
               WHERE family_id = ${familyId}::uuid AND id = ANY(${pairs.flatMap((pair) => [pair.outflowId, pair.inflowId])}::uuid[])
                 FOR KEY SHARE`
          ).map((row) => row.id),
        );
        const kept = pairs.filter((pair) => present.has(pair.outflowId) && present.has(pair.inflowId));
        const created = await tx.transfer.createManyAndReturn({
          data: kept.map((pair) => ({ familyId, inflowEntryId: pair.inflowId, outflowEntryId: pair.outflowId, status: "pending" as const })),
          skipDuplicates: true,
          select: { outflowEntryId: true, inflowEntryId: true },
        });
        const kindOf = new Map(pairs.map((pair) => [pair.outflowId, pair.outflowKind]));
        const outflowsByKind = new Map<OutflowKind, string[]>();
        for (const { outflowEntryId } of created) {
          const kind = kindOf.get(outflowEntryId)!;
          const ids = outflowsByKind.get(kind) ?? [];
          ids.push(outflowEntryId);
          outflowsByKind.set(kind, ids);
        }
        for (const [kind, ids] of outflowsByKind) await tx.entry.updateMany({ where: { id: { in: ids } }, data: { transactionKind: kind } });
        const inflows = created.map((transfer) => transfer.inflowEntryId);
        if (inflows.length > 0) await tx.entry.updateMany({ where: { id: { in: inflows } }, data: { transactionKind: "funds_movement" } });
        const contributions = outflowsByKind.get("investment_contribution") ?? [];
        if (contributions.length > 0) {
          const category = await familyCategoryNamed(tx, familyId, INVESTMENT_CONTRIBUTIONS_CATEGORY);
          await tx.entry.updateMany({ where: { id: { in: contributions }, categoryId: null }, data: { categoryId: category } });
        }
        return created.length;
      }, MATCH_TRANSACTION);
    },
  };
}
export type TransferMatchQueries = ReturnType<typeof createTransferMatchQueries>;
