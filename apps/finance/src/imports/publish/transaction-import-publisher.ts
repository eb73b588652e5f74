import type { FinanceTx } from "../../db";
import { Prisma } from "../../generated/prisma/client";
import { DEFAULT_CATEGORY_COLOR, suggestIcon } from "../../categories/default-categories";
import { adjustTransactionCount } from "../../ledger/ledger-version";
import { applyRulesToImportedEntries } from "../../rules/rules-on-create";
import { risingIds } from "../../rules/sql-ids";
import { requestAccountSync } from "../../syncs/sync-queue-queries";
import { pickTagColor } from "../../tags/tag-colors";
import { resolveStagedAccounts } from "./staged-accounts";

export interface PublishTarget {
  id: string;
  familyId: string;
  /** The account every row goes to; null: each row names its account. */
  accountId: string | null;
}

export interface PublishOutcome {
  transactions: number;
  skipped_duplicates: number;
}

/** Rows per INSERT: progress is reported between them. */
const INSERT_BATCH = 1_000;
/** The source of entries written with a file's own transaction id (OFX's FITID, a row's values.external_id). */
const FILE_ID_SOURCE = "ofx";

/**
 * Publishes a TransactionImport inside the caller's transaction (all or nothing), set-based:
 * the valid rows are staged in a temporary table, their accounts, categories and tags resolved
 * (missing categories and tags are made, as Sure's mappings make them; an account must exist),
 * duplicates skipped one for one (a row is a duplicate while the account has more entries of
 * the same day, amount, currency and name than earlier identical rows claimed), the rest
 * written with the import's id, the family's rules applied to them, and syncs queued.
 * Rows that carry an external_id (OFX's FITID; CSV rows never do) are matched by it instead:
 * skipped when the account has it already (source 'ofx') or an earlier row of the file had it,
 * written with it, and counted against only entries without one in the day/amount/name match.
 */
export async function publishTransactionImport(tx: FinanceTx, target: PublishTarget, onProgress: (rowsDone: number) => Promise<void>): Promise<PublishOutcome> {
  const { id: importId, familyId } = target;
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

  await resolveStagedAccounts(tx, "import_stage", target);
  await tx.$executeRaw`
    UPDATE import_stage s SET currency = CASE WHEN s.currency_from_file THEN s.file_currency ELSE a.currency END
      FROM accounts a WHERE a.id = s.account_id`;

  // Categories and tags by exact name, made when missing (with the import's id: its revert removes them; one the family has is left as it is).
  const categories = await tx.$queryRaw<{ name: string }[]>`SELECT DISTINCT category AS name FROM import_stage WHERE category IS NOT NULL`;
  if (categories.length > 0) {
    await tx.category.createMany({
      data: categories.map(({ name }) => ({ familyId, name, color: DEFAULT_CATEGORY_COLOR, icon: suggestIcon(name), importId })),
      skipDuplicates: true,
    });
    await tx.$executeRaw`
      UPDATE import_stage s SET category_id = c.id FROM categories c WHERE c.family_id = ${familyId}::uuid AND c.name = s.category`;
  }
  const tags = await tx.$queryRaw<{ name: string }[]>`SELECT DISTINCT unnest(tags) AS name FROM import_stage`;
  if (tags.length > 0) {
    await tx.tag.createMany({ data: tags.map(({ name }) => ({ familyId, name, color: pickTagColor(), importId })), skipDuplicates: true });
  }

  // A file's own transaction ids (OFX FITIDs): a row the account already has by its id, or an
  // earlier row of the file had, is a duplicate whatever its day, amount or name. Entries are
  // unique by (account, source, external_id), so each id is written once.
  await tx.$executeRaw`
    UPDATE import_stage s SET known_external_id = true
      FROM (SELECT row_number, row_number() OVER (PARTITION BY account_id, external_id ORDER BY row_number) AS nth
              FROM import_stage WHERE external_id IS NOT NULL) f
     WHERE f.row_number = s.row_number
       AND (f.nth > 1 OR EXISTS (SELECT 1 FROM entries e WHERE e.account_id = s.account_id AND e.source = ${FILE_ID_SOURCE} AND e.external_id = s.external_id))`;

  // Duplicates, one for one, then ids for the rest (rising, as Prisma's UUIDv7 ids do). A row
  // with an external id counts only entries without one: those with one were matched by it.
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

  const [bounds] = await tx.$queryRaw<{ last: number | null; kept: number; total: number }[]>`
    SELECT max(row_number) AS last, count(entry_id)::int AS kept, count(*)::int AS total FROM import_stage`;
  const last = bounds?.last ?? 0;
  for (let from = 0; from < last; from += INSERT_BATCH) {
    await tx.$executeRaw`
      INSERT INTO entries (id, family_id, account_id, kind, transaction_kind, date, name, amount_cents, currency, notes, category_id, import_id,
                           external_id, source, created_at, updated_at)
      SELECT entry_id, ${familyId}::uuid, account_id, 'transaction', 'standard', date, name, amount_cents, currency, notes, category_id, ${importId}::uuid,
             external_id, CASE WHEN external_id IS NOT NULL THEN ${FILE_ID_SOURCE}::text END, now(), now()
        FROM import_stage WHERE entry_id IS NOT NULL AND row_number > ${from} AND row_number <= ${from + INSERT_BATCH}
       ORDER BY row_number`;
    await onProgress(Math.min(from + INSERT_BATCH, last));
  }
  await tx.$executeRaw`
    INSERT INTO entry_tags (entry_id, tag_id)
    SELECT s.entry_id, t.id FROM import_stage s CROSS JOIN LATERAL unnest(s.tags) AS n(name)
      JOIN tags t ON t.family_id = ${familyId}::uuid AND t.name = n.name
     WHERE s.entry_id IS NOT NULL
    ON CONFLICT DO NOTHING`;

  await applyRulesToImportedEntries(tx, familyId, importId);
  const windows = await tx.$queryRaw<{ account_id: string; first: Date }[]>`
    SELECT account_id, min(date) AS first FROM import_stage WHERE entry_id IS NOT NULL GROUP BY account_id`;
  for (const window of windows) await requestAccountSync(tx, familyId, window.account_id, window.first.toISOString().slice(0, 10));
  await adjustTransactionCount(tx, familyId, null);
  const kept = bounds?.kept ?? 0;
  return { transactions: kept, skipped_duplicates: (bounds?.total ?? 0) - kept };
}
