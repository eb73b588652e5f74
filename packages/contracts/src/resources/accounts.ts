import { z } from "zod";
import { AmountInputSchema, CentsSchema, CurrencyCodeSchema } from "../money";
import { BooleanQuerySchema, LedgerDateSchema, PageQuerySchema, PaginationSchema, TimestampSchema, UuidSchema } from "../primitives";
import { subtypeProblem } from "./account-subtypes";

/** Sure's account types (its `accountable_type`, underscored). */
export const ACCOUNT_TYPES = ["depository", "investment", "crypto", "property", "vehicle", "credit_card", "loan", "other_asset", "other_liability"] as const;
export const AccountTypeSchema = z.enum(ACCOUNT_TYPES);
export type AccountType = z.infer<typeof AccountTypeSchema>;

export const AccountStatusSchema = z.enum(["active", "draft", "disabled", "pending_deletion"]);
export const AccountClassificationSchema = z.enum(["asset", "liability"]);

/** Sure's Account: the summary nested in transactions and valuations. */
export const AccountSummarySchema = z.object({
  id: UuidSchema,
  name: z.string(),
  account_type: z.string().nullable(),
  status: AccountStatusSchema.optional(),
});
export type AccountSummary = z.infer<typeof AccountSummarySchema>;

/** Sure's AccountDetail: balances as the spec's money pairs (signed minor units). */
export const AccountDetailSchema = z.object({
  id: UuidSchema,
  name: z.string(),
  balance: z.string(),
  balance_cents: CentsSchema,
  cash_balance: z.string(),
  cash_balance_cents: CentsSchema,
  currency: z.string(),
  classification: AccountClassificationSchema,
  account_type: AccountTypeSchema,
  subtype: z.string().nullable(),
  status: AccountStatusSchema,
  institution_name: z.string().nullable(),
  institution_domain: z.string().nullable(),
  created_at: TimestampSchema,
  updated_at: TimestampSchema,
});
export type AccountDetail = z.infer<typeof AccountDetailSchema>;

export const AccountCollectionSchema = z.object({ accounts: z.array(AccountDetailSchema), pagination: PaginationSchema });

export const AccountListQuerySchema = PageQuerySchema.extend({ include_disabled: BooleanQuerySchema.optional() });
export const AccountGetQuerySchema = z.object({ include_disabled: BooleanQuerySchema.optional() });

const AccountName = z.string().trim().min(1, { message: "Name can't be blank" }).max(200, { message: "Name is too long (maximum is 200 characters)" });
const OptionalText = z.string().trim().max(200).nullable().optional();
/** Typed in any case: "eur" is EUR. */
export const CurrencyInputSchema = z.string().trim().toUpperCase().pipe(CurrencyCodeSchema);

export const CreateAccountBodySchema = z.object({
  account: z
    .object({
      name: AccountName,
      account_type: AccountTypeSchema,
      subtype: OptionalText.describe("One of Sure's subtypes for the account type (any for vehicle, other_asset, other_liability)"),
      currency: CurrencyInputSchema.optional().describe("Defaults to the family currency"),
      balance: AmountInputSchema.optional().describe("Opening balance (default 0); liabilities are positive amounts owed"),
      opening_balance_date: LedgerDateSchema.optional().describe("Date of the opening balance (default today)"),
      status: z.enum(["active", "draft"]).optional(),
      institution_name: OptionalText,
      institution_domain: OptionalText,
    })
    // A subtype Sure does not list for the type would make every export of the family refused by both importers.
    .superRefine((account, ctx) => {
      const problem = subtypeProblem(account.account_type, account.subtype);
      if (problem) ctx.addIssue({ code: "custom", path: ["subtype"], message: problem });
    }),
});

export const UpdateAccountBodySchema = z.object({
  account: z.object({
    name: AccountName.optional(),
    subtype: OptionalText.describe("One of Sure's subtypes for the account's type (checked against the stored type)"),
    status: z.enum(["active", "draft", "disabled"]).optional(),
    institution_name: OptionalText,
    institution_domain: OptionalText,
  }),
});
