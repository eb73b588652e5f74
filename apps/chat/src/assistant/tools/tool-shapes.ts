// Finance's resources as the assistant's compact results: names next to ids, money as pairs.
import { ASSISTANT_LIST_CAP, MAX_PER_PAGE, minorUnitDigits, moneyOf, type AssistantTransaction, type Transaction } from "@hearth/contracts";

/** `{ id, name }` of whatever has both, or null. */
export function refOf(record: { id: string; name: string } | null | undefined): { id: string; name: string } | null {
  return record ? { id: record.id, name: record.name } : null;
}

export function assistantTransactionOf(transaction: Transaction): AssistantTransaction {
  return {
    id: transaction.id,
    date: transaction.date,
    name: transaction.name,
    ...moneyOf("amount", transaction.amount_cents, transaction.currency),
    currency: transaction.currency,
    classification: transaction.classification,
    kind: transaction.kind,
    excluded: transaction.excluded,
    account: { id: transaction.account.id, name: transaction.account.name },
    category: refOf(transaction.category),
    merchant: refOf(transaction.merchant),
    tags: transaction.tags.map((tag) => ({ id: tag.id, name: tag.name })),
    notes: transaction.notes,
  };
}

/**
 * Minor units of one of Sure's plain decimal amounts ("-1234.5", "USD" → -123450). Not centsOf:
 * a family's totals may pass the cap one entry's amount has.
 */
export function centsOfDecimal(amount: string, currency: string): number {
  const match = /^(-?)(\d+)(?:\.(\d+))?$/.exec(amount.trim());
  if (!match) throw new Error(`"${amount}" is not a decimal amount`);
  const [, sign, whole, fraction = ""] = match;
  const digits = minorUnitDigits(currency);
  const cents = BigInt(whole! + fraction.padEnd(digits, "0").slice(0, digits));
  return Number(sign === "-" ? -cents : cents);
}

/**
 * Reads a paginated finance list page by page (the largest pages finance serves) until all is
 * read or ASSISTANT_LIST_CAP rows are; `truncated` says there were more.
 */
export async function readCapped<T>(pageOf: (page: number, perPage: number) => Promise<{ rows: T[]; total: number }>) {
  const rows: T[] = [];
  let total = 0;
  for (let page = 1; rows.length < ASSISTANT_LIST_CAP; page++) {
    const answer = await pageOf(page, MAX_PER_PAGE);
    total = answer.total;
    rows.push(...answer.rows);
    if (answer.rows.length < MAX_PER_PAGE || rows.length >= total) break;
  }
  return { rows: rows.slice(0, ASSISTANT_LIST_CAP), total, truncated: total > ASSISTANT_LIST_CAP };
}

/** A whole (unpaginated) list cut to ASSISTANT_LIST_CAP. */
export function capped<T>(rows: readonly T[]) {
  return { rows: rows.slice(0, ASSISTANT_LIST_CAP), total: rows.length, truncated: rows.length > ASSISTANT_LIST_CAP };
}
