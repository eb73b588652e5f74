import { z } from "zod";
import { CentsSchema } from "../money";
import { DateInputSchema, DateSchema, PageQuerySchema, PaginationSchema, TimestampSchema, UuidSchema } from "../primitives";
import { CurrencyInputSchema } from "./accounts";

const money = <N extends string>(name: N) =>
  ({ [name]: z.string(), [`${name}_cents`]: CentsSchema }) as { [K in N]: z.ZodString } & { [K in `${N}_cents`]: typeof CentsSchema };

/** The spec's Balance: one account, one day, every part of Sure's arithmetic as a money pair. */
export const BalanceSchema = z.object({
  id: UuidSchema,
  date: DateSchema,
  currency: z.string(),
  flows_factor: z.number(),
  ...money("balance"),
  ...money("cash_balance"),
  ...money("start_cash_balance"),
  ...money("start_non_cash_balance"),
  ...money("start_balance"),
  ...money("cash_inflows"),
  ...money("cash_outflows"),
  ...money("non_cash_inflows"),
  ...money("non_cash_outflows"),
  ...money("net_market_flows"),
  ...money("cash_adjustments"),
  ...money("non_cash_adjustments"),
  ...money("end_cash_balance"),
  ...money("end_non_cash_balance"),
  ...money("end_balance"),
  account: z.object({ id: UuidSchema, name: z.string(), account_type: z.string().nullable() }),
  created_at: TimestampSchema,
  updated_at: TimestampSchema,
});
export type Balance = z.infer<typeof BalanceSchema>;

export const BalanceCollectionSchema = z.object({ balances: z.array(BalanceSchema), pagination: PaginationSchema });

export const BalanceListQuerySchema = PageQuerySchema.extend({
  account_id: UuidSchema.optional(),
  currency: CurrencyInputSchema.optional(),
  start_date: DateInputSchema.optional(),
  end_date: DateInputSchema.optional(),
});
