/**
 * A recurring transaction's identity as one text, so one unique index (family_id, identity_key)
 * holds what Sure's partial unique indexes do: the account (or none), the currency, the amount,
 * then the merchant or else the name. The name goes last, so whatever it contains cannot make
 * two identities read alike. Unlike Sure's index, where NULL account ids never collide, two rows
 * without an account do. The name is compared as written, as Sure compares it.
 */
export interface RecurringIdentity {
  accountId: string | null;
  merchantId: string | null;
  name: string | null;
  amountCents: bigint;
  currency: string;
}

/** The key of an identity; ids must be as PostgreSQL prints them (lower case), as identityKeySql (recurring-sql.ts) builds them. */
export function identityKeyOf({ accountId, merchantId, name, amountCents, currency }: RecurringIdentity): string {
  return `${accountId ?? "-"}|${currency}|${amountCents.toString()}|${merchantId ? `m:${merchantId}` : `n:${name ?? ""}`}`;
}
