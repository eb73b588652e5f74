import type { Databases } from "./databases";
import { request, type StatusTally } from "./http";
import { startLoad, type LoadResult } from "./load";
import { until } from "./processes";
import type { User } from "./users";

const ACCOUNTS = 4;
const OPENING_CENTS = 100_000;

export interface TransactionLoad {
  /** Transactions answered 201: unique name -> id. */
  created: Map<string, string>;
  tally: StatusTally;
  stop: () => Promise<LoadResult>;
}

/**
 * Expenses written through the gateway with an API key, round robin over a few accounts of one
 * family (each write queues its account's balance sync), each with a unique name to count it by.
 */
export async function startTransactionLoad(gatewayUrl: string, user: User, concurrency: number): Promise<TransactionLoad> {
  const accounts: string[] = [];
  for (let index = 0; index < ACCOUNTS; index++) {
    const created = await request(gatewayUrl, "POST", "/api/v1/accounts", {
      apiKey: user.writeKey,
      body: { account: { name: `Account ${index}`, account_type: "depository", balance: OPENING_CENTS / 100 } },
    });
    if (created.status !== 201) throw new Error(`account: ${created.status} ${JSON.stringify(created.body)}`);
    accounts.push(created.body.id);
  }
  const today = new Date().toISOString().slice(0, 10);
  const created = new Map<string, string>();
  const load = startLoad(concurrency, async (_client, sequence) => {
    const name = `write-${sequence}`;
    const answer = await request(gatewayUrl, "POST", "/api/v1/transactions", {
      apiKey: user.writeKey,
      body: { transaction: { account_id: accounts[sequence % ACCOUNTS], name, date: today, amount: ((sequence % 97) + 1) / 100 } },
    });
    if (answer.status === 201) created.set(name, answer.body.id);
    return answer;
  });
  return { created, tally: load.tally, stop: load.stop };
}

export interface FinanceBooks {
  accounts: { id: string; balanceCents: number; newestRowCents: number | null; expectedCents: number }[];
  /** Accounts whose cached balance or newest balance row differs from the opening balance less every expense. */
  wrongBalances: string[];
  /** Transaction entries of the family. */
  entries: number;
  /** Of the ids answered 201, how many are stored. */
  answeredFound: number;
  /** Entries beyond one per unique name (a write stored twice). */
  doubledNames: number;
}

/** The family's ledger read from the finance database, balances recomputed in SQL from its entries. */
export async function financeBooks(db: Databases, familyId: string, answeredIds: string[]): Promise<FinanceBooks> {
  const rows = await db.query<{ id: string; balance_cents: string; newest_row_cents: string | null; spent_cents: string }>(
    "finance",
    `SELECT a.id, a.balance_cents,
            (SELECT b.end_cash_balance_cents + b.end_non_cash_balance_cents FROM balances b WHERE b.account_id = a.id ORDER BY b.date DESC LIMIT 1) AS newest_row_cents,
            (SELECT coalesce(sum(e.amount_cents), 0) FROM entries e WHERE e.account_id = a.id AND e.kind = 'transaction') AS spent_cents
       FROM accounts a WHERE a.family_id = $1 ORDER BY a.id`,
    [familyId],
  );
  const accounts = rows.map((row) => ({
    id: row.id,
    balanceCents: Number(row.balance_cents),
    newestRowCents: row.newest_row_cents === null ? null : Number(row.newest_row_cents),
    expectedCents: OPENING_CENTS - Number(row.spent_cents),
  }));
  const [counts] = await db.query<{ entries: string; answered: string; doubled: string }>(
    "finance",
    `SELECT count(*) AS entries,
            count(*) FILTER (WHERE id = ANY($2::uuid[])) AS answered,
            count(*) - count(DISTINCT name) AS doubled
       FROM entries WHERE family_id = $1 AND kind = 'transaction'`,
    [familyId, answeredIds],
  );
  return {
    accounts,
    wrongBalances: accounts
      .filter((account) => account.balanceCents !== account.expectedCents || account.newestRowCents !== account.expectedCents)
      .map((account) => account.id),
    entries: Number(counts?.entries ?? 0),
    answeredFound: Number(counts?.answered ?? 0),
    doubledNames: Number(counts?.doubled ?? 0),
  };
}

/** Every balance row of the family, as text to compare. */
async function balanceRows(db: Databases, familyId: string): Promise<string[]> {
  const rows = await db.query<{ row: string }>(
    "finance",
    `SELECT concat_ws(' ', account_id, date, currency, end_cash_balance_cents, end_non_cash_balance_cents) AS row FROM balances WHERE family_id = $1 ORDER BY account_id, date, currency`,
    [familyId],
  );
  return rows.map((row) => row.row);
}

/**
 * A full recompute of the family (POST /api/v1/sync: every account from its opening day), awaited
 * with its child syncs; counts the balance rows it changed (none, if the stored ones were right).
 */
export async function queueFullRecompute(gatewayUrl: string, db: Databases, user: User) {
  const before = await balanceRows(db, user.familyId);
  const started = Date.now();
  const queued = await request(gatewayUrl, "POST", "/api/v1/sync", { apiKey: user.writeKey });
  if (queued.status !== 202) throw new Error(`sync: ${queued.status} ${JSON.stringify(queued.body)}`);
  const syncId = queued.body.id as string;
  let failed = 0;
  await until(
    async () => {
      const [row] = await db.query<{ open: string; failed: string }>(
        "finance",
        `SELECT count(*) FILTER (WHERE status NOT IN ('completed', 'failed')) AS open, count(*) FILTER (WHERE status = 'failed') AS failed
           FROM syncs WHERE id = $1 OR parent_id = $1`,
        [syncId],
      );
      failed = Number(row?.failed ?? 0);
      return row !== undefined && Number(row.open) === 0;
    },
    120_000,
    "the full recompute finishing",
  );
  const after = await balanceRows(db, user.familyId);
  const beforeSet = new Set(before);
  const rowsChanged = after.filter((row) => !beforeSet.has(row)).length + Math.max(0, before.length - after.length);
  return { rowsChanged, failedSyncs: failed, seconds: (Date.now() - started) / 1000 };
}
