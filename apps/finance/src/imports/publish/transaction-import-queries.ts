import type { FinanceTx } from "../../db";
import { Prisma } from "../../generated/prisma/client";
import { risingIds } from "../../rules/rising-id-sql";

// The TransactionImport publisher's statements, on its staging table (import_stage: a temp
// table dropped at commit, one row per valid import row).

/** The source of entries written with a file's own transaction id (OFX's FITID, a row's values.external_id). */
const FILE_ID_SOURCE = "ofx";

/** Stages the import's valid rows; accounts, currencies, categories and entry ids are filled in later. */
export async function stageTransactionRows(tx: FinanceTx, importId: string): Promise<void> {
  await tx.$executeRaw`
    CREATE TEMP TABLE import_stage ON COMMIT DROP AS
    SELECT r.row_number,
           (r.values->>'date')::date AS date,
           (r.values->>'amount_cents')::bigint AS amount_cents,
           r.values->>'currency' AS file_currency,
           COALESCE((r.values->>'currency_from_file')::boolean, false) AS currency_from_file,
           r.values->>'name' AS name,
           NULLIF(r.values->>'category', '') AS category,
           ARRAY(SELECT jsonb_array_elements_text(COALESCE(r.values->'tags', '[]'::jsonb))) AS tags,
           r.values->>'notes' AS notes,
           NULLIF(r.values->>'account', '') AS account_name,
           NULLIF(r.values->>'external_id', '') AS external_id, false AS known_external_id,
           NULL::uuid AS account_id, NULL::text AS currency, NULL::uuid AS category_id, NULL::uuid AS entry_id
      FROM import_rows r
     WHERE r.import_id = ${importId}::uuid AND r.values IS NOT NULL`;
}

/** Each row's currency: the file's where the row took it from the file, else its account's. */
export async function setStagedCurrencies(tx: FinanceTx): Promise<void> {
  await tx.$executeRaw`
    UPDATE import_stage s SET currency = CASE WHEN s.currency_from_file THEN s.file_currency ELSE a.currency END
      FROM accounts a WHERE a.id = s.account_id`;
}

export async function stagedCategoryNames(tx: FinanceTx): Promise<string[]> {
  const categories = await tx.$queryRaw<{ name: string }[]>`SELECT DISTINCT category AS name FROM import_stage WHERE category IS NOT NULL`;
  return categories.map(({ name }) => name);
}

/** Each row's category: the family's of its exact name. */
export async function linkStagedCategories(tx: FinanceTx, familyId: string): Promise<void> {
  await tx.$executeRaw`
    UPDATE import_stage s SET category_id = c.id FROM categories c WHERE c.family_id = ${familyId}::uuid AND c.name = s.category`;
}

export async function stagedTagNames(tx: FinanceTx): Promise<string[]> {
  const tags = await tx.$queryRaw<{ name: string }[]>`SELECT DISTINCT unnest(tags) AS name FROM import_stage`;
  return tags.map(({ name }) => name);
}

/**
 * A file's own transaction ids (OFX FITIDs): a row the account already has by its id, or an
 * earlier row of the file had, is a duplicate whatever its day, amount or name. Entries are
 * unique by (account, source, external_id), so each id is written once.
 */
export async function markKnownExternalIds(tx: FinanceTx): Promise<void> {
  await tx.$executeRaw`
    UPDATE import_stage s SET known_external_id = true
      FROM (SELECT row_number, row_number() OVER (PARTITION BY account_id, external_id ORDER BY row_number) AS nth
              FROM import_stage WHERE external_id IS NOT NULL) f
     WHERE f.row_number = s.row_number
       AND (f.nth > 1 OR EXISTS (SELECT 1 FROM entries e WHERE e.account_id = s.account_id AND e.source = ${FILE_ID_SOURCE} AND e.external_id = s.external_id))`;
}

/**
 * Duplicates, one for one, then ids for the rest (rising, as Prisma's UUIDv7 ids do). A row
 * with an external id counts only entries without one: those with one were matched by it.
 */
export async function keepNewTransactions(tx: FinanceTx): Promise<void> {
  const ids = risingIds();
  await tx.$executeRaw`
    WITH ranked AS (
      SELECT row_number, account_id, date, amount_cents, currency, name, external_id,
             row_number() OVER (PARTITION BY account_id, date, amount_cents, currency, name ORDER BY row_number) AS rank
        FROM import_stage WHERE NOT known_external_id),
    existing AS (
      SELECT k.account_id, k.date, k.amount_cents, k.currency, k.name, count(e.id) AS n,
             count(e.id) FILTER (WHERE e.external_id IS NULL OR e.source IS DISTINCT FROM ${FILE_ID_SOURCE}) AS n_without_id
        FROM (SELECT DISTINCT account_id, date, amount_cents, currency, name FROM import_stage) k
        JOIN entries e ON e.account_id = k.account_id AND e.date = k.date AND e.amount_cents = k.amount_cents
                      AND e.currency = k.currency AND e.name = k.name AND e.kind = 'transaction'
       GROUP BY 1, 2, 3, 4, 5),
    kept AS (
      SELECT r.row_number, row_number() OVER (ORDER BY r.row_number) AS ordinal
        FROM ranked r
        LEFT JOIN existing x ON x.account_id = r.account_id AND x.date = r.date AND x.amount_cents = r.amount_cents
                            AND x.currency = r.currency AND x.name = r.name
       WHERE r.rank > COALESCE(CASE WHEN r.external_id IS NULL THEN x.n ELSE x.n_without_id END, 0))
    UPDATE import_stage s SET entry_id = ${ids(Prisma.sql`k.ordinal`)} FROM kept k WHERE k.row_number = s.row_number`;
}

/** The last row number staged, how many rows got an entry id, and how many were staged. */
export async function stagedTransactionCounts(tx: FinanceTx): Promise<{ last: number; kept: number; total: number }> {
  const [bounds] = await tx.$queryRaw<{ last: number | null; kept: number; total: number }[]>`
    SELECT max(row_number) AS last, count(entry_id)::int AS kept, count(*)::int AS total FROM import_stage`;
  return { last: bounds?.last ?? 0, kept: bounds?.kept ?? 0, total: bounds?.total ?? 0 };
}

/** Writes the entries of the kept rows numbered after `from`, up to `to`, with the import's id. */
export async function insertStagedTransactions(tx: FinanceTx, familyId: string, importId: string, from: number, to: number): Promise<void> {
  await tx.$executeRaw`
    INSERT INTO entries (id, family_id, account_id, kind, transaction_kind, date, name, amount_cents, currency, notes, category_id, import_id,
                         external_id, source, created_at, updated_at)
    SELECT entry_id, ${familyId}::uuid, account_id, 'transaction', 'standard', date, name, amount_cents, currency, notes, category_id, ${importId}::uuid,
           external_id, CASE WHEN external_id IS NOT NULL THEN ${FILE_ID_SOURCE}::text END, now(), now()
      FROM import_stage WHERE entry_id IS NOT NULL AND row_number > ${from} AND row_number <= ${to}
     ORDER BY row_number`;
}

/** Tags the written entries with the family's tags of the names their rows gave. */
export async function tagStagedEntries(tx: FinanceTx, familyId: string): Promise<void> {
  await tx.$executeRaw`
    INSERT INTO entry_tags (entry_id, tag_id)
    SELECT s.entry_id, t.id FROM import_stage s CROSS JOIN LATERAL unnest(s.tags) AS n(name)
      JOIN tags t ON t.family_id = ${familyId}::uuid AND t.name = n.name
     WHERE s.entry_id IS NOT NULL
    ON CONFLICT DO NOTHING`;
}

/** Each account written to, with the first day written: where its sync starts. */
export function stagedTransactionWindows(tx: FinanceTx) {
  return tx.$queryRaw<{ account_id: string; first: Date }[]>`
    SELECT account_id, min(date) AS first FROM import_stage WHERE entry_id IS NOT NULL GROUP BY account_id`;
}

/**
 * Claims the existing transactions the rows left out as duplicates matched, one for one (the
 * rank-th identical row the rank-th entry of that day, amount, currency and name, by id), as
 * Sure's TransactionImport#import! updates the duplicate it finds: the row's category, tags and
 * notes are set on it where the row has them. Each claim keeps what the entry had before, for a
 * revert (restoreClaimedDuplicates). Rows with a file's own id (OFX) were matched by it and claim
 * nothing. Answers how many entries were claimed.
 */
export async function claimStagedDuplicates(tx: FinanceTx, familyId: string, importId: string): Promise<number> {
  const claimed = await tx.$executeRaw`
    WITH dup AS (
      SELECT s.account_id, s.date, s.amount_cents, s.currency, s.name, s.category_id, s.tags, NULLIF(btrim(s.notes), '') AS notes,
             row_number() OVER (PARTITION BY s.account_id, s.date, s.amount_cents, s.currency, s.name ORDER BY s.row_number) AS rank
        FROM import_stage s WHERE s.entry_id IS NULL AND s.external_id IS NULL AND NOT s.known_external_id),
    cand AS (
      SELECT e.id, e.account_id, e.date, e.amount_cents, e.currency, e.name, e.category_id, e.notes,
             row_number() OVER (PARTITION BY e.account_id, e.date, e.amount_cents, e.currency, e.name ORDER BY e.id) AS rank
        FROM entries e
        JOIN (SELECT DISTINCT account_id, date, amount_cents, currency, name FROM dup) k
          ON e.account_id = k.account_id AND e.date = k.date AND e.amount_cents = k.amount_cents AND e.currency = k.currency AND e.name = k.name
       WHERE e.family_id = ${familyId}::uuid AND e.kind = 'transaction')
    INSERT INTO import_claims (import_id, entry_id, family_id, prior_category_id, applied_category_id, prior_notes, applied_notes,
                               prior_tag_ids, applied_tag_ids, tags_applied)
    SELECT ${importId}::uuid, c.id, ${familyId}::uuid, c.category_id, d.category_id, c.notes, d.notes,
           ARRAY(SELECT et.tag_id FROM entry_tags et WHERE et.entry_id = c.id ORDER BY et.tag_id),
           ARRAY(SELECT DISTINCT t.id FROM unnest(d.tags) AS n(name) JOIN tags t ON t.family_id = ${familyId}::uuid AND t.name = n.name ORDER BY t.id),
           cardinality(d.tags) > 0
      FROM dup d
      JOIN cand c ON c.account_id = d.account_id AND c.date = d.date AND c.amount_cents = d.amount_cents AND c.currency = d.currency
                 AND c.name = d.name AND c.rank = d.rank
    ON CONFLICT DO NOTHING`;
  if (claimed === 0) return 0;
  await tx.$executeRaw`
    UPDATE entries e SET category_id = COALESCE(c.applied_category_id, e.category_id), notes = COALESCE(c.applied_notes, e.notes), updated_at = now()
      FROM import_claims c
     WHERE c.import_id = ${importId}::uuid AND e.id = c.entry_id AND (c.applied_category_id IS NOT NULL OR c.applied_notes IS NOT NULL)`;
  await tx.$executeRaw`
    DELETE FROM entry_tags et USING import_claims c WHERE c.import_id = ${importId}::uuid AND c.tags_applied AND et.entry_id = c.entry_id`;
  await tx.$executeRaw`
    INSERT INTO entry_tags (entry_id, tag_id)
    SELECT c.entry_id, unnest(c.applied_tag_ids) FROM import_claims c WHERE c.import_id = ${importId}::uuid AND c.tags_applied
    ON CONFLICT DO NOTHING`;
  return claimed;
}

/** The pairs of currency a row's amount was read in and the currency of the account it goes to, for rows that did not take theirs from the file. */
export async function stagedCurrencySwaps(tx: FinanceTx): Promise<{ read_in: string; account_currency: string; account_name: string }[]> {
  return tx.$queryRaw<{ read_in: string; account_currency: string; account_name: string }[]>`
    SELECT DISTINCT s.file_currency AS read_in, s.currency AS account_currency, a.name AS account_name
      FROM import_stage s JOIN accounts a ON a.id = s.account_id
     WHERE NOT s.currency_from_file AND s.currency <> s.file_currency
     ORDER BY 3 LIMIT 10`;
}
