import { AppError, pageWindow, type BodyOf, type QueryOf } from "@hearth/contracts";
import { isUniqueViolation } from "@hearth/service-kit";
import { findAccount } from "../accounts/account-repository";
import type { FinanceDb } from "../db";
import { Prisma } from "../generated/prisma/client";
import { dateOf } from "../ledger/dates";
import { centsIn } from "../ledger/money";
import { identityKeyOf } from "./recurring-identity";

export type NewRecurringTransaction = BodyOf<"recurringTransactions.create">["recurring_transaction"];
export type RecurringTransactionChanges = BodyOf<"recurringTransactions.update">["recurring_transaction"];

/** A recurring transaction with the account and merchant it names, as the answer shows them. */
export interface RecurringRow {
  id: string;
  amount_cents: bigint;
  currency: string;
  expected_day_of_month: number;
  last_occurrence_date: Date;
  next_expected_date: Date;
  status: string;
  occurrence_count: number;
  name: string | null;
  manual: boolean;
  expected_amount_min_cents: bigint | null;
  expected_amount_max_cents: bigint | null;
  expected_amount_avg_cents: bigint | null;
  created_at: Date;
  updated_at: Date;
  account_id: string | null;
  account_name: string | null;
  account_type: string | null;
  merchant_id: string | null;
  merchant_name: string | null;
}

const SELECT_ROWS = Prisma.sql`
  SELECT r.id, r.amount_cents, r.currency, r.expected_day_of_month, r.last_occurrence_date, r.next_expected_date, r.status,
         r.occurrence_count, r.name, r.manual, r.expected_amount_min_cents, r.expected_amount_max_cents, r.expected_amount_avg_cents,
         r.created_at, r.updated_at, r.account_id, a.name AS account_name, a.account_type::text AS account_type, r.merchant_id, m.name AS merchant_name`;

/**
 * The family's rows as the API sees them. One whose account is being deleted is hidden at once
 * (the next scan removes it; a deleted account or merchant takes its rows with it by foreign key).
 */
function visibleRows(familyId: string): Prisma.Sql {
  return Prisma.sql`
    FROM recurring_transactions r
    LEFT JOIN accounts a ON a.id = r.account_id AND a.family_id = r.family_id
    LEFT JOIN merchants m ON m.id = r.merchant_id AND m.family_id = r.family_id
   WHERE r.family_id = ${familyId}::uuid
     AND (r.account_id IS NULL OR (a.id IS NOT NULL AND a.status <> 'pending_deletion'))
     AND (r.merchant_id IS NULL OR m.id IS NOT NULL)`;
}

const CONFLICT = () => new AppError("conflict", { message: "Recurring transaction already exists" });

/** Every query is scoped by the family of the verified caller. */
export function createRecurringRepository(db: FinanceDb) {
  async function find(familyId: string, id: string): Promise<RecurringRow> {
    const [row] = await db.$queryRaw<RecurringRow[]>`${SELECT_ROWS} ${visibleRows(familyId)} AND r.id = ${id}::uuid`;
    if (!row) throw AppError.notFound("Recurring transaction");
    return row;
  }

  /** Minor units of an optional amount in the row's currency (too many decimals is a 422 naming the field). */
  const optionalCents = (text: string | null | undefined, currency: string, field: string) =>
    text === null || text === undefined ? null : centsIn(text, currency, field);

  return {
    /** Sure's order: active before inactive, then the soonest expected first. */
    async list(familyId: string, query: QueryOf<"recurringTransactions.list">): Promise<{ rows: RecurringRow[]; total: number }> {
      const filters = Prisma.sql`${query.status ? Prisma.sql` AND r.status = ${query.status}` : Prisma.empty}${
        query.account_id ? Prisma.sql` AND r.account_id = ${query.account_id}::uuid` : Prisma.empty
      }`;
      const { skip, take } = pageWindow(query);
      const [rows, [count]] = await Promise.all([
        db.$queryRaw<RecurringRow[]>`${SELECT_ROWS} ${visibleRows(familyId)} ${filters}
          ORDER BY r.status, r.next_expected_date, r.id LIMIT ${take} OFFSET ${skip}`,
        db.$queryRaw<{ total: bigint }[]>`SELECT count(*) AS total ${visibleRows(familyId)} ${filters}`,
      ]);
      return { rows, total: Number(count?.total ?? 0) };
    },

    get: find,

    /**
     * Sure's create: the account and merchant must be the family's (else 404), the row is manual
     * unless told otherwise, and one with the same account, merchant or name, amount and
     * currency is a 409 (the unique identity key).
     */
    async create(familyId: string, input: NewRecurringTransaction): Promise<RecurringRow> {
      const account = input.account_id ? await findAccount(db, familyId, input.account_id) : null;
      const merchant = input.merchant_id ? await db.merchant.findFirst({ where: { id: input.merchant_id, familyId }, select: { id: true } }) : null;
      if (input.merchant_id && !merchant) throw AppError.notFound("Merchant");
      const currency = input.currency;
      const amountCents = centsIn(input.amount, currency, "Amount");
      const min = optionalCents(input.expected_amount_min, currency, "Expected amount min");
      const max = optionalCents(input.expected_amount_max, currency, "Expected amount max");
      const avg = optionalCents(input.expected_amount_avg, currency, "Expected amount avg");
      const manual = input.manual ?? true;
      // Sure's amount_variance_consistency, checked for manual rows only.
      if (manual && min !== null && max !== null && min > max) throw AppError.validation(["Expected amount min cannot be greater than expected_amount_max"]);
      const name = input.name ?? null;
      const identity = { accountId: account?.id ?? null, merchantId: merchant?.id ?? null, name, amountCents, currency };
      try {
        const row = await db.recurringTransaction.create({
          data: {
            familyId,
            ...identity,
            expectedDayOfMonth: input.expected_day_of_month,
            lastOccurrenceDate: dateOf(input.last_occurrence_date),
            nextExpectedDate: dateOf(input.next_expected_date),
            status: input.status ?? "active",
            occurrenceCount: input.occurrence_count ?? 0,
            manual,
            expectedAmountMinCents: min,
            expectedAmountMaxCents: max,
            expectedAmountAvgCents: avg,
            identityKey: identityKeyOf(identity),
          },
          select: { id: true },
        });
        return await find(familyId, row.id);
      } catch (err) {
        if (isUniqueViolation(err)) throw CONFLICT();
        throw err;
      }
    },

    /** Sure's update takes status, expected day and next expected date only; the next scan may move an automatic row's again. */
    async update(familyId: string, id: string, changes: RecurringTransactionChanges): Promise<RecurringRow> {
      await find(familyId, id);
      await db.recurringTransaction.updateMany({
        where: { id, familyId },
        data: {
          ...(changes.status !== undefined ? { status: changes.status } : {}),
          ...(changes.expected_day_of_month !== undefined ? { expectedDayOfMonth: changes.expected_day_of_month } : {}),
          ...(changes.next_expected_date !== undefined ? { nextExpectedDate: dateOf(changes.next_expected_date) } : {}),
        },
      });
      return find(familyId, id);
    },

    async delete(familyId: string, id: string): Promise<void> {
      await find(familyId, id);
      const { count } = await db.recurringTransaction.deleteMany({ where: { id, familyId } });
      if (count === 0) throw AppError.notFound("Recurring transaction");
    },
  };
}
export type RecurringRepository = ReturnType<typeof createRecurringRepository>;
