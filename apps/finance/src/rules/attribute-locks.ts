/**
 * Attributes a person set by hand are locked against rules (Sure's Enrichable#lock_saved_attributes!):
 * a rule leaves them alone unless its run ignores locks. Names as Sure's locked_attributes keys.
 */
export type LockedAttribute = "category_id" | "merchant_id" | "name" | "notes" | "tag_ids" | "excluded" | "kind" | "investment_activity_label";

interface NewTransactionFields {
  category_id?: string | null | undefined;
  merchant_id?: string | null | undefined;
  notes?: string | null | undefined;
  tag_ids?: string[] | undefined;
  excluded?: boolean | undefined;
}

/**
 * What a new transaction's creator chose: the attributes given a value other than the default
 * (Sure locks a new record's saved changes, and tags only when there are some). The name is
 * not locked: every transaction is created with one, and renaming new transactions is what
 * naming rules are for.
 */
export function locksOfNewTransaction(input: NewTransactionFields): LockedAttribute[] {
  const locks: LockedAttribute[] = [];
  if (input.category_id) locks.push("category_id");
  if (input.merchant_id) locks.push("merchant_id");
  if (input.notes !== undefined && input.notes !== null) locks.push("notes");
  if (input.tag_ids !== undefined && input.tag_ids.length > 0) locks.push("tag_ids");
  if (input.excluded === true) locks.push("excluded");
  return locks;
}

interface CurrentTransaction {
  name: string;
  notes: string | null;
  excluded: boolean;
  categoryId: string | null;
  merchantId: string | null;
}

interface TransactionChangeFields extends NewTransactionFields {
  name?: string | undefined;
}

/** What an update changed by hand (Sure locks the saved changes; tags whenever given and not empty). */
export function locksOfChanges(current: CurrentTransaction, changes: TransactionChangeFields): LockedAttribute[] {
  const locks: LockedAttribute[] = [];
  if (changes.name !== undefined && changes.name !== current.name) locks.push("name");
  if (changes.notes !== undefined && changes.notes !== current.notes) locks.push("notes");
  if (changes.excluded !== undefined && changes.excluded !== current.excluded) locks.push("excluded");
  if (changes.category_id !== undefined && changes.category_id !== current.categoryId) locks.push("category_id");
  if (changes.merchant_id !== undefined && changes.merchant_id !== current.merchantId) locks.push("merchant_id");
  if (changes.tag_ids !== undefined && changes.tag_ids.length > 0) locks.push("tag_ids");
  return locks;
}

/** The locks after adding `added` (the column may be NULL on old rows). */
export function withLocks(current: readonly string[] | null | undefined, added: readonly string[]): string[] {
  return [...new Set([...(current ?? []), ...added])];
}
