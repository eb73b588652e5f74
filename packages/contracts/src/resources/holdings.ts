import { z } from "zod";
import { CentsSchema } from "../money";
import { DateInputSchema, DateSchema, PageQuerySchema, PaginationSchema, TimestampSchema, UuidSchema, listQuery } from "../primitives";
import { AccountSummarySchema } from "./accounts";
import { SecurityRefSchema } from "./securities";

/** Sure's Holding: what an account held of a security at the end of a day, valued in the account's currency. */
export const HoldingSchema = z.object({
  id: UuidSchema,
  date: DateSchema,
  /** As Ruby prints a BigDecimal: "10.0". */
  qty: z.string(),
  /** The unit price, formatted. */
  price: z.string(),
  amount: z.string(),
  amount_cents: CentsSchema,
  currency: z.string(),
  cost_basis_source: z.string().nullable(),
  account: AccountSummarySchema,
  security: SecurityRefSchema,
  /** The weighted average price of the buys so far, formatted; null before any buy. */
  avg_cost: z.string().nullable(),
  created_at: TimestampSchema,
  updated_at: TimestampSchema,
});
export type Holding = z.infer<typeof HoldingSchema>;

export const HoldingCollectionSchema = z.object({ holdings: z.array(HoldingSchema), pagination: PaginationSchema });

export const HoldingListQuerySchema = PageQuerySchema.extend({
  account_id: UuidSchema.optional(),
  account_ids: listQuery(UuidSchema).optional(),
  date: DateInputSchema.optional(),
  start_date: DateInputSchema.optional(),
  end_date: DateInputSchema.optional(),
  security_id: UuidSchema.optional(),
});
