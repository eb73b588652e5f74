import type { FinanceTx } from "../db";

/**
 * Gives back what an import's claims changed on the transactions they claimed (see
 * claimStagedDuplicates), then drops the claims: a category, the notes or the tags the import
 * set go back to what they were, each only while it is still what the import set (a change made
 * since stays). A category or tag deleted since is not restored.
 */
export async function restoreClaimedDuplicates(tx: FinanceTx, familyId: string, importId: string): Promise<void> {
  // Locked first (a transaction's edit updates its row): an edit committed between the checks below and the restore would be lost.
  await tx.$queryRaw`
    SELECT e.id FROM entries e JOIN import_claims c ON c.entry_id = e.id
     WHERE c.import_id = ${importId}::uuid AND c.family_id = ${familyId}::uuid ORDER BY e.id FOR UPDATE OF e`;
  await tx.$executeRaw`
    UPDATE entries e
       SET category_id = CASE WHEN c.applied_category_id IS NOT NULL AND e.category_id IS NOT DISTINCT FROM c.applied_category_id
                              THEN (SELECT k.id FROM categories k WHERE k.id = c.prior_category_id) ELSE e.category_id END,
           notes = CASE WHEN c.applied_notes IS NOT NULL AND e.notes IS NOT DISTINCT FROM c.applied_notes THEN c.prior_notes ELSE e.notes END,
           updated_at = now()
      FROM import_claims c
     WHERE c.import_id = ${importId}::uuid AND c.family_id = ${familyId}::uuid AND e.id = c.entry_id
       AND ((c.applied_category_id IS NOT NULL AND e.category_id IS NOT DISTINCT FROM c.applied_category_id)
         OR (c.applied_notes IS NOT NULL AND e.notes IS NOT DISTINCT FROM c.applied_notes))`;
  // Tags: only where the entry still has exactly the tags the import set.
  const untouched = await tx.$queryRaw<{ entry_id: string }[]>`
    SELECT c.entry_id FROM import_claims c
     WHERE c.import_id = ${importId}::uuid AND c.family_id = ${familyId}::uuid AND c.tags_applied
       AND ARRAY(SELECT et.tag_id FROM entry_tags et WHERE et.entry_id = c.entry_id ORDER BY et.tag_id) = c.applied_tag_ids`;
  if (untouched.length > 0) {
    const ids = untouched.map((row) => row.entry_id);
    await tx.$executeRaw`DELETE FROM entry_tags WHERE entry_id = ANY(${ids}::uuid[])`;
    await tx.$executeRaw`
      INSERT INTO entry_tags (entry_id, tag_id)
      SELECT c.entry_id, t.id FROM import_claims c CROSS JOIN LATERAL unnest(c.prior_tag_ids) AS p(id) JOIN tags t ON t.id = p.id
       WHERE c.import_id = ${importId}::uuid AND c.entry_id = ANY(${ids}::uuid[])
      ON CONFLICT DO NOTHING`;
  }
  await tx.$executeRaw`DELETE FROM import_claims WHERE import_id = ${importId}::uuid AND family_id = ${familyId}::uuid`;
}
