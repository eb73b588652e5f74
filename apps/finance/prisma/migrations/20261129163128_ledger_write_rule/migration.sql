-- The ledger's write rule, kept by the database: every write of a family's entries, or of what
-- the transaction lists filter on besides them (entry tags, tags, merchant names), bumps the
-- family's ledger_versions.version and moves ledger_versions.transactions by exactly the
-- transactions it added or removed, in the writing transaction, whatever code or SQL wrote it.
-- (The balance sync each change needs stays in code: requestAccountSync.)
--
-- Statement-level triggers note each statement's changes per family in ledger_changes (one row
-- per transaction and family, so a 10,000-row insert is one trigger run and one row). A deferred
-- trigger applies that row to ledger_versions when the transaction commits. The version row is
-- so locked only at commit: a long import or rule run does not hold the family's other writes
-- back until it ends, and the lock order stays account, entries, then the ledger version.
--
-- schema.prisma models the ledger_changes table but not the functions and triggers below: Prisma
-- has no way to describe them. They exist only in this migration (hearth-migrations check leaves
-- functions and triggers out of its comparison with schema.prisma).
--
-- The migration runner (Prisma's pg driver adapter) sends a script statement by statement, split
-- at every semicolon, even one inside a function's body or a comment. So no comment here has one,
-- and the PL/pgSQL bodies below are E'' strings in which each statement ends in \073 (a
-- semicolon) and a quote is written twice.

-- CreateTable
CREATE TABLE "ledger_changes" (
    "xact" BIGINT NOT NULL,
    "family_id" UUID NOT NULL,
    "transactions" BIGINT NOT NULL,

    CONSTRAINT "ledger_changes_pkey" PRIMARY KEY ("xact","family_id")
);

-- Notes a change to the family's ledger in the current transaction (`added`: how many
-- transactions it added, negative when removed). Applied when the transaction commits.
CREATE FUNCTION "note_ledger_change"("family" UUID, "added" BIGINT) RETURNS void LANGUAGE sql AS $$
  INSERT INTO ledger_changes (xact, family_id, transactions) VALUES (pg_current_xact_id()::text::bigint, family, added)
  ON CONFLICT (xact, family_id) DO UPDATE SET transactions = ledger_changes.transactions + EXCLUDED.transactions
$$;

-- Entries: each family's transactions (entries of kind transaction, what the unfiltered list
-- counts) as the statement left them less as it found them.
CREATE FUNCTION "entries_note_ledger_change"() RETURNS trigger LANGUAGE plpgsql AS E'
BEGIN
  IF TG_OP IN (''INSERT'', ''UPDATE'') THEN
    PERFORM note_ledger_change(family_id, count(*) FILTER (WHERE kind = ''transaction'')) FROM new_entries GROUP BY family_id\073
  END IF\073
  IF TG_OP IN (''UPDATE'', ''DELETE'') THEN
    PERFORM note_ledger_change(family_id, -count(*) FILTER (WHERE kind = ''transaction'')) FROM old_entries GROUP BY family_id\073
  END IF\073
  RETURN NULL\073
END';

-- A trigger with transition tables fires on one event only: three of them, one function.
CREATE TRIGGER "entries_inserted_ledger_change" AFTER INSERT ON "entries"
  REFERENCING NEW TABLE AS new_entries FOR EACH STATEMENT EXECUTE FUNCTION entries_note_ledger_change();
CREATE TRIGGER "entries_updated_ledger_change" AFTER UPDATE ON "entries"
  REFERENCING OLD TABLE AS old_entries NEW TABLE AS new_entries FOR EACH STATEMENT EXECUTE FUNCTION entries_note_ledger_change();
CREATE TRIGGER "entries_deleted_ledger_change" AFTER DELETE ON "entries"
  REFERENCING OLD TABLE AS old_entries FOR EACH STATEMENT EXECUTE FUNCTION entries_note_ledger_change();

-- Entry tags: the tag filter counts entries by them. The family is the tag's (a tag deleted with
-- its taggings is gone by now: the tags trigger notes that one).
CREATE FUNCTION "entry_tags_note_ledger_change"() RETURNS trigger LANGUAGE plpgsql AS E'
BEGIN
  IF TG_OP IN (''INSERT'', ''UPDATE'') THEN
    PERFORM note_ledger_change(family_id, 0) FROM (SELECT DISTINCT family_id FROM tags WHERE id IN (SELECT tag_id FROM new_entry_tags)) f\073
  END IF\073
  IF TG_OP IN (''UPDATE'', ''DELETE'') THEN
    PERFORM note_ledger_change(family_id, 0) FROM (SELECT DISTINCT family_id FROM tags WHERE id IN (SELECT tag_id FROM old_entry_tags)) f\073
  END IF\073
  RETURN NULL\073
END';

CREATE TRIGGER "entry_tags_inserted_ledger_change" AFTER INSERT ON "entry_tags"
  REFERENCING NEW TABLE AS new_entry_tags FOR EACH STATEMENT EXECUTE FUNCTION entry_tags_note_ledger_change();
CREATE TRIGGER "entry_tags_updated_ledger_change" AFTER UPDATE ON "entry_tags"
  REFERENCING OLD TABLE AS old_entry_tags NEW TABLE AS new_entry_tags FOR EACH STATEMENT EXECUTE FUNCTION entry_tags_note_ledger_change();
CREATE TRIGGER "entry_tags_deleted_ledger_change" AFTER DELETE ON "entry_tags"
  REFERENCING OLD TABLE AS old_entry_tags FOR EACH STATEMENT EXECUTE FUNCTION entry_tags_note_ledger_change();

-- Tags deleted: their taggings went with them.
CREATE FUNCTION "tags_note_ledger_change"() RETURNS trigger LANGUAGE plpgsql AS E'
BEGIN
  PERFORM note_ledger_change(family_id, 0) FROM (SELECT DISTINCT family_id FROM old_tags) f\073
  RETURN NULL\073
END';

CREATE TRIGGER "tags_deleted_ledger_change" AFTER DELETE ON "tags"
  REFERENCING OLD TABLE AS old_tags FOR EACH STATEMENT EXECUTE FUNCTION tags_note_ledger_change();

-- A merchant's new name changes what a transaction search finds. (A merchant or category deleted
-- sets its entries' column to null: the entries trigger notes that.)
CREATE FUNCTION "merchants_note_ledger_change"() RETURNS trigger LANGUAGE plpgsql AS E'
BEGIN
  PERFORM note_ledger_change(NEW.family_id, 0)\073
  RETURN NULL\073
END';

CREATE TRIGGER "merchants_renamed_ledger_change" AFTER UPDATE OF "name" ON "merchants"
  FOR EACH ROW WHEN (OLD.name IS DISTINCT FROM NEW.name) EXECUTE FUNCTION merchants_note_ledger_change();

-- At commit: the transaction's changes to the family become one version bump and the count moved
-- by their sum. (Were the row ever missing, `added` would be null and the count forgotten: the
-- next unfiltered list counts again.)
CREATE FUNCTION "apply_ledger_change"() RETURNS trigger LANGUAGE plpgsql AS E'
DECLARE
  added BIGINT\073
BEGIN
  DELETE FROM ledger_changes WHERE xact = NEW.xact AND family_id = NEW.family_id RETURNING transactions INTO added\073
  INSERT INTO ledger_versions (family_id, version) VALUES (NEW.family_id, 1)
  ON CONFLICT (family_id) DO UPDATE SET version = ledger_versions.version + 1, transactions = ledger_versions.transactions + added\073
  RETURN NULL\073
END';

CREATE CONSTRAINT TRIGGER "ledger_changes_applied_at_commit" AFTER INSERT ON "ledger_changes"
  DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION apply_ledger_change();

-- The counts kept by hand until now are forgotten: each is counted afresh by the family's next
-- unfiltered list, then kept by the triggers.
UPDATE "ledger_versions" SET "transactions" = NULL;
