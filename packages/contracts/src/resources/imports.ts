import { z } from "zod";
import { BooleanParamSchema, PageQuerySchema, TimestampSchema, UuidSchema } from "../primitives";
import { PageMetaSchema } from "./common";
import { TEXT_ENCODINGS, TextEncodingSchema } from "./text-encodings";

// ---------------------------------------------------------------- types and limits

/**
 * The import types Hearth serves: Sure's CSV imports (Mint, YNAB and Actual Budget exports among
 * them), its NDJSON export (SureImport), its QIF files (QifImport) and ours, OFX/QFX files (OfxImport).
 */
export const IMPORT_TYPES = [
  "TransactionImport",
  "TradeImport",
  "AccountImport",
  "MintImport",
  "ActualImport",
  "YnabImport",
  "CategoryImport",
  "RuleImport",
  "MerchantImport",
  "SureImport",
  "QifImport",
  "OfxImport",
] as const;
export type ImportType = (typeof IMPORT_TYPES)[number];

/** The types whose content is a CSV table read with an ImportConfig. */
export const CSV_IMPORT_TYPES = [
  "TransactionImport",
  "TradeImport",
  "AccountImport",
  "MintImport",
  "ActualImport",
  "YnabImport",
  "CategoryImport",
  "RuleImport",
  "MerchantImport",
] as const;
export type CsvImportType = (typeof CSV_IMPORT_TYPES)[number];

/** The CSV types whose rows are transactions: Sure's own and the budgeting apps' exports it reads. */
export const TRANSACTION_CSV_TYPES = ["TransactionImport", "MintImport", "ActualImport", "YnabImport"] as const;
export type TransactionCsvType = (typeof TRANSACTION_CSV_TYPES)[number];
export const isTransactionCsvType = (type: string): type is TransactionCsvType => (TRANSACTION_CSV_TYPES as readonly string[]).includes(type);

export const ImportTypeSchema = z.enum(IMPORT_TYPES, { message: `type must be one of: ${IMPORT_TYPES.join(", ")}` });

export const IMPORT_STATUSES = ["pending", "complete", "importing", "reverting", "revert_failed", "failed"] as const;
export type ImportStatus = (typeof IMPORT_STATUSES)[number];
export const ImportStatusSchema = z.enum(IMPORT_STATUSES, { message: `status must be one of: ${IMPORT_STATUSES.join(", ")}` });

/**
 * What one CSV may hold. maxBytes and maxRows are Sure's (Import::MAX_CSV_SIZE, max_row_count);
 * columns and cell length Sure leaves open, so a hostile file is bounded here: 200 columns, and a
 * cell of 32 KiB holds any note or a rule's conditions with room to spare.
 */
export const IMPORT_CSV_LIMITS = { maxBytes: 10 * 1024 * 1024, maxRows: 10_000, maxColumns: 200, maxCellLength: 32_768 } as const;

/** Sure's max_row_count: the rows one import may publish (accounts are made one by one, so 50). */
export function importMaxRowCount(type: ImportType): number {
  return type === "AccountImport" ? 50 : IMPORT_CSV_LIMITS.maxRows;
}

// ---------------------------------------------------------------- CSV configuration

/** Family::DATE_FORMATS plus Import::CSV_ONLY_DATE_FORMATS (two-digit years, offered for CSV files only). */
export const IMPORT_DATE_FORMATS = {
  "%m-%d-%Y": "MM-DD-YYYY",
  "%d.%m.%Y": "DD.MM.YYYY",
  "%d-%m-%Y": "DD-MM-YYYY",
  "%Y-%m-%d": "YYYY-MM-DD",
  "%d/%m/%Y": "DD/MM/YYYY",
  "%Y/%m/%d": "YYYY/MM/DD",
  "%m/%d/%Y": "MM/DD/YYYY",
  "%e/%m/%Y": "D/MM/YYYY",
  "%Y.%m.%d": "YYYY.MM.DD",
  "%Y%m%d": "YYYYMMDD",
  "%d %b %Y": "DD MMM YYYY",
  "%d/%m/%y": "DD/MM/YY",
  /** Hearth's: German and Dutch bank exports write 28.03.18 (Sure offers only DD/MM/YY of the two-digit years). */
  "%d.%m.%y": "DD.MM.YY",
} as const;
export type ImportDateFormat = keyof typeof IMPORT_DATE_FORMATS;
const DATE_FORMAT_KEYS = Object.keys(IMPORT_DATE_FORMATS) as [ImportDateFormat, ...ImportDateFormat[]];

/** Sure's NUMBER_FORMATS: US/UK, most of Europe, French/Scandinavian, zero-decimal currencies. */
export const IMPORT_NUMBER_FORMATS = ["1,234.56", "1.234,56", "1 234,56", "1,234"] as const;
export type ImportNumberFormat = (typeof IMPORT_NUMBER_FORMATS)[number];

export const IMPORT_SIGNAGE_CONVENTIONS = ["inflows_positive", "inflows_negative"] as const;
export type ImportSignageConvention = (typeof IMPORT_SIGNAGE_CONVENTIONS)[number];

export const IMPORT_COLUMN_SEPARATORS = [",", ";"] as const;
export type ImportColumnSeparator = (typeof IMPORT_COLUMN_SEPARATORS)[number];

/** Sure's two, and Hearth's debit_credit_columns: money out in one column, money in in another (most UK and US bank CSVs). */
export const IMPORT_AMOUNT_TYPE_STRATEGIES = ["signed_amount", "custom_column", "debit_credit_columns"] as const;
export type ImportAmountTypeStrategy = (typeof IMPORT_AMOUNT_TYPE_STRATEGIES)[number];

/** Leading lines a file may ask to skip (bank exports put a few lines of metadata above the header). */
export const IMPORT_ROWS_TO_SKIP_MAX = 1_000;
/** The longest column label or inflow value. */
export const IMPORT_LABEL_MAX = 255;

/** Sure's custom_column_import_requires_identifier message. */
export const CUSTOM_COLUMN_REQUIRES_INFLOW = "Custom column imports require an inflow column to be selected";

function humanize(field: string): string {
  const words = field.replaceAll("_", " ");
  return words.charAt(0).toUpperCase() + words.slice(1);
}

/** A header name or cell value from the client; blank means none (Sure's `presence`). */
function optionalLabel(field: string) {
  return z
    .string({ message: `${humanize(field)} must be text` })
    .max(IMPORT_LABEL_MAX, { message: `${humanize(field)} is too long (maximum is ${IMPORT_LABEL_MAX} characters)` })
    .nullable()
    .optional()
    .transform((text) => (text === undefined || text === null || text.trim() === "" ? null : text));
}

/** One of `values`, or Rails' inclusion message naming the field. */
function choice<const T extends readonly [string, ...string[]]>(field: string, values: T) {
  return z.enum(values, { message: `${humanize(field)} is not included in the list` });
}

/** Rails reads integer params from text ("2"); anything else is "not a number". */
const RowsToSkipSchema = z.preprocess(
  (value) => (typeof value === "string" && /^\s*[+-]?\d{1,10}(\.\d{1,10})?\s*$/.test(value) ? Number(value) : value),
  z
    .number({ message: "Rows to skip is not a number" })
    .int({ message: "Rows to skip must be an integer" })
    .min(0, { message: "Rows to skip must be greater than or equal to 0" })
    .max(IMPORT_ROWS_TO_SKIP_MAX, { message: `Rows to skip must be less than or equal to ${IMPORT_ROWS_TO_SKIP_MAX}` }),
);

/** The column labels Sure's API takes: the header each field is read from. */
export const IMPORT_COLUMN_LABELS = [
  "date_col_label",
  "amount_col_label",
  "name_col_label",
  "category_col_label",
  "tags_col_label",
  "notes_col_label",
  "account_col_label",
  "qty_col_label",
  "ticker_col_label",
  "price_col_label",
  "entity_type_col_label",
  "currency_col_label",
  "exchange_operating_mic_col_label",
  /** Hearth's: the columns of debit_credit_columns. */
  "debit_col_label",
  "credit_col_label",
] as const;
export type ImportColumnLabel = (typeof IMPORT_COLUMN_LABELS)[number];

/** What the OpenAPI says of Hearth's own labels. */
const LABEL_DESCRIPTIONS: Partial<Record<ImportColumnLabel, string>> = {
  debit_col_label:
    "Hearth extension. With amount_type_strategy debit_credit_columns: the header of the money-out column (else Debit, Debit Amount, Paid Out, Money Out or Withdrawals)",
  credit_col_label:
    "Hearth extension. With amount_type_strategy debit_credit_columns: the header of the money-in column (else Credit, Credit Amount, Paid In, Money In or Deposits)",
};

const labelFields = Object.fromEntries(
  IMPORT_COLUMN_LABELS.map((field) => {
    const description = LABEL_DESCRIPTIONS[field];
    return [field, description ? optionalLabel(field).describe(description) : optionalLabel(field)];
  }),
) as {
  [K in ImportColumnLabel]: ReturnType<typeof optionalLabel>;
};

/**
 * The CSV configuration Sure's imports controller permits (import_config_params), with the
 * defaults of Sure's imports table. An absent label is no label: the field is then read from
 * its usual header ("date", "amount", ...). A date_format outside Sure's list is refused (Sure
 * stores any text and then fails every row).
 */
export const ImportConfigParamsSchema = z
  .object({
    ...labelFields,
    date_format: choice("date_format", DATE_FORMAT_KEYS).default("%m/%d/%Y"),
    number_format: choice("number_format", IMPORT_NUMBER_FORMATS).default("1,234.56"),
    /** Sure allows null: signed amounts are then read as inflows_negative, custom columns as inflows_positive. */
    signage_convention: choice("signage_convention", IMPORT_SIGNAGE_CONVENTIONS).nullable().default("inflows_positive"),
    col_sep: choice("col_sep", IMPORT_COLUMN_SEPARATORS).default(","),
    amount_type_strategy: choice("amount_type_strategy", IMPORT_AMOUNT_TYPE_STRATEGIES)
      .default("signed_amount")
      .describe(
        "signed_amount or custom_column as in Sure; debit_credit_columns (Hearth extension): each row's amount is in one of two columns, debit (money out) or credit (money in), exactly one of them filled; signage_convention does not apply",
      ),
    /** custom_column: the entity-type value that marks a row as an inflow (or, as in Sure, "inflows_positive"/"inflows_negative"). */
    amount_type_inflow_value: optionalLabel("amount_type_inflow_value"),
    rows_to_skip: RowsToSkipSchema.default(0),
  })
  .superRefine((config, ctx) => {
    if (config.amount_type_strategy === "custom_column" && config.amount_type_inflow_value === null) {
      ctx.addIssue({ code: "custom", path: ["amount_type_inflow_value"], message: CUSTOM_COLUMN_REQUIRES_INFLOW });
    }
  });
export type ImportConfigParams = z.input<typeof ImportConfigParamsSchema>;
/** A configuration with every default applied: what the parsing reads. */
export type ImportConfig = z.output<typeof ImportConfigParamsSchema>;

/**
 * Sure's DEFAULT_COLUMN_MAPPINGS of the budgeting apps' exports (mint_import.rb, ynab_import.rb,
 * actual_import.rb): the headers and formats each app writes, applied where the request leaves
 * a parameter blank, before the headers are checked (imports_controller_test.rb "should apply
 * Mint defaults before preflight header validation"). Sure's create overwrites even given ones;
 * Hearth keeps them, as Sure's preflight does.
 */
export const IMPORT_TYPE_DEFAULTS: Partial<Record<ImportType, Readonly<Record<string, string>>>> = {
  MintImport: {
    signage_convention: "inflows_positive",
    date_col_label: "Date",
    date_format: "%m/%d/%Y",
    name_col_label: "Description",
    amount_col_label: "Amount",
    currency_col_label: "Currency",
    account_col_label: "Account Name",
    category_col_label: "Category",
    tags_col_label: "Labels",
    notes_col_label: "Notes",
    entity_type_col_label: "Transaction Type",
  },
  YnabImport: {
    signage_convention: "inflows_positive",
    date_col_label: "Date",
    date_format: "%m/%d/%Y",
    name_col_label: "Payee",
    account_col_label: "Account",
    category_col_label: "Category",
    notes_col_label: "Memo",
  },
  ActualImport: {
    signage_convention: "inflows_positive",
    date_col_label: "Date",
    date_format: "%Y-%m-%d",
    name_col_label: "Payee",
    amount_col_label: "Amount",
    account_col_label: "Account",
    category_col_label: "Category",
    notes_col_label: "Notes",
  },
};

const isBlank = (value: unknown) => value === undefined || value === null || (typeof value === "string" && value.trim() === "");

/** A request body with its type's defaults (IMPORT_TYPE_DEFAULTS) in the parameters it leaves blank. */
export function withImportTypeDefaults(body: unknown): unknown {
  if (typeof body !== "object" || body === null || Array.isArray(body)) return body;
  const type = (body as Record<string, unknown>)["type"];
  const defaults = typeof type === "string" && Object.hasOwn(IMPORT_TYPE_DEFAULTS, type) ? IMPORT_TYPE_DEFAULTS[type as ImportType] : undefined;
  if (!defaults) return body;
  const filled: Record<string, unknown> = { ...(body as Record<string, unknown>) };
  for (const [key, value] of Object.entries(defaults)) if (isBlank(filled[key])) filled[key] = value;
  return filled;
}

/** The rest of a create or preflight request besides its content (raw_file_content or a file). */
export const ImportRequestParamsSchema = z.object({
  /** Absent, blank or a type Hearth does not know: TransactionImport, as Sure's create does. */
  type: z.preprocess(
    (value) => (typeof value === "string" && (IMPORT_TYPES as readonly string[]).includes(value) ? value : "TransactionImport"),
    ImportTypeSchema,
  ),
  account_id: UuidSchema.optional(),
  /** "true" queues the import for publishing once it is configured. */
  publish: BooleanParamSchema.optional(),
});

// ---------------------------------------------------------------- responses

const Text = z.string().max(IMPORT_LABEL_MAX);
const CellText = z.string().max(IMPORT_CSV_LIMITS.maxCellLength);
const MessageText = z.string().max(2_000);

export const ImportStatusSummarySchema = z.object({ uploaded: z.boolean(), configured: z.boolean(), terminal: z.boolean() });

export const ImportStatusDetailSchema = ImportStatusSummarySchema.extend({ cleaned: z.boolean(), publishable: z.boolean(), revertable: z.boolean() });

/** The configuration an import answers with (Sure's show.json.jbuilder: these ten fields only). */
export const ImportConfigurationSchema = z.object({
  date_col_label: Text.nullable(),
  amount_col_label: Text.nullable(),
  name_col_label: Text.nullable(),
  category_col_label: Text.nullable(),
  tags_col_label: Text.nullable(),
  notes_col_label: Text.nullable(),
  account_col_label: Text.nullable(),
  date_format: Text.nullable(),
  number_format: Text.nullable(),
  signage_convention: Text.nullable(),
});
export type ImportConfiguration = z.infer<typeof ImportConfigurationSchema>;

export const ImportStatsSchema = z.object({
  rows_count: z.number().int().min(0),
  valid_rows_count: z.number().int().min(0),
  invalid_rows_count: z.number().int().min(0),
  mappings_count: z.number().int().min(0),
  unassigned_mappings_count: z.number().int().min(0),
});

const CountsSchema = z.record(Text, z.number().int());

/** SureImport only: the NDJSON's record counts, compared with the family's after publishing. */
export const ImportVerificationSchema = z.object({
  expected_record_counts: CountsSchema,
  readback: z.object({
    status: z.enum(["not_verified", "matched", "mismatch", "failed", "reverted"]).optional(),
    checked_at: TimestampSchema.nullable().optional(),
    expected_record_counts: CountsSchema.optional(),
    before_counts: CountsSchema.optional(),
    after_counts: CountsSchema.optional(),
    actual_delta_counts: CountsSchema.optional(),
    checked_counts: CountsSchema.optional(),
    mismatches: z.record(Text, z.object({ expected: z.number().int(), actual: z.number().int() })).optional(),
    error: MessageText.nullable().optional(),
  }),
});

const importIdentity = {
  id: UuidSchema,
  type: ImportTypeSchema,
  status: ImportStatusSchema,
  created_at: TimestampSchema,
  updated_at: TimestampSchema,
  account_id: UuidSchema.nullable(),
  /** Present only when the import failed (Sure leaves the key out otherwise). */
  error: MessageText.nullable().optional(),
};

/** Sure's ImportSummary (the list item). */
export const ImportSummarySchema = z.object({ ...importIdentity, rows_count: z.number().int().min(0), status_detail: ImportStatusSummarySchema });
export type ImportSummary = z.infer<typeof ImportSummarySchema>;

/** Names a file gives its rows' accounts (an account column, QIF !Account) at most, per import: more is no household's file. */
export const IMPORT_ACCOUNT_NAMES_MAX = 500;

/** Ours: a name a file gives its rows' account, and where it goes (null: nowhere yet; publishing waits for it). */
export const ImportAccountNameSchema = z.object({
  name: z.string().max(IMPORT_LABEL_MAX),
  /** The account it goes to: the one it was mapped to, else the family's of that name. */
  account: z.object({ id: UuidSchema, name: z.string() }).nullable(),
  /** Mapped to a new account, made at publish. */
  create: z.boolean(),
});

export type ImportAccountName = z.infer<typeof ImportAccountNameSchema>;

/** PUT /api/v1/imports/{id}/account_mappings: where names of the file go (Sure's account mappings, set before publishing). */
export const ImportAccountMappingsBodySchema = z.object({
  mappings: z
    .array(
      z
        .object({
          name: z.string().min(1).max(IMPORT_LABEL_MAX),
          /** The family's account the name goes to; null with create false takes a mapping back. */
          account_id: UuidSchema.nullable().optional(),
          /** A new depository account of that name, made at publish (Sure's "Add as new account"). */
          create: BooleanParamSchema.optional(),
        })
        .refine((mapping) => !(mapping.create === true && mapping.account_id), { message: "A mapping takes account_id or create, not both" }),
    )
    .min(1)
    .max(IMPORT_ACCOUNT_NAMES_MAX),
});

/** Sure's ImportDetail. */
export const ImportDetailSchema = z.object({
  ...importIdentity,
  status_detail: ImportStatusDetailSchema,
  configuration: ImportConfigurationSchema,
  stats: ImportStatsSchema,
  verification: ImportVerificationSchema.optional(),
  /** Ours: the character encoding the file was read in (asked for, declared by the file, or detected). */
  encoding: z.enum(TEXT_ENCODINGS),
  /** Ours: the names the file gives its rows' accounts when the import names no account, and where each goes. */
  account_names: z.array(ImportAccountNameSchema).max(IMPORT_ACCOUNT_NAMES_MAX),
  /** Ours: how far a publish got (rows written of the rows to write), while it runs and after. */
  progress: z.object({ rows_done: z.number().int().min(0), rows_total: z.number().int().min(0) }),
  /** Ours: what the publish wrote, by kind (e.g. transactions, skipped_duplicates); null until it completed. */
  result: z.record(Text, z.number().int().min(0)).nullable(),
});
export type ImportDetail = z.infer<typeof ImportDetailSchema>;

export const ImportResponseSchema = z.object({ data: ImportDetailSchema });
export const ImportCollectionSchema = z.object({ data: z.array(ImportSummarySchema).max(100), meta: PageMetaSchema });

export const ImportListQuerySchema = PageQuerySchema.extend({
  status: z.preprocess((value) => (value === "" ? undefined : value), ImportStatusSchema.optional()),
  type: z.preprocess((value) => (value === "" ? undefined : value), ImportTypeSchema.optional()),
});
export const ImportRowListQuerySchema = PageQuerySchema;

/** The mapping kinds of Sure's Import::Mapping subclasses, as row diagnostics name them. */
export const IMPORT_MAPPING_TYPES = ["Import::AccountMapping", "Import::CategoryMapping", "Import::TagMapping", "Import::AccountTypeMapping"] as const;
export type ImportMappingType = (typeof IMPORT_MAPPING_TYPES)[number];

/** How one value of a row (an account name, a category, a tag, an account type) is resolved. */
export const ImportRowMappingSchema = z.object({
  key: CellText.nullable(),
  type: z.enum(IMPORT_MAPPING_TYPES),
  /** An account type mapping's chosen type ("Depository"); null for the others. */
  value: Text.nullable(),
  create_when_empty: z.boolean(),
  creatable: z.boolean(),
  mappable: z.object({ id: UuidSchema, type: Text, name: Text.nullable() }).nullable(),
});
export type ImportRowMapping = z.infer<typeof ImportRowMappingSchema>;

/** A row as stored: the text read from the file (numbers normalised to "1234.56"). */
export const ImportRowFieldsSchema = z.object({
  account: CellText.nullable(),
  date: CellText.nullable(),
  qty: CellText.nullable(),
  ticker: CellText.nullable(),
  exchange_operating_mic: CellText.nullable(),
  price: CellText.nullable(),
  amount: CellText.nullable(),
  currency: CellText.nullable(),
  name: CellText.nullable(),
  category: CellText.nullable(),
  tags: CellText.nullable(),
  entity_type: CellText.nullable(),
  notes: CellText.nullable(),
  active: z.boolean().nullable(),
  effective_date: CellText.nullable(),
  conditions: CellText.nullable(),
  actions: CellText.nullable(),
});
export type ImportRowFields = z.infer<typeof ImportRowFieldsSchema>;

/** Sure's ImportRowDiagnostic: a row, whether it can be published, and how its values map. */
export const ImportRowDiagnosticSchema = z.object({
  id: UuidSchema,
  row_number: z.number().int().min(1),
  valid: z.boolean(),
  errors: z.array(MessageText).max(50),
  fields: ImportRowFieldsSchema,
  mappings: z.object({
    account: ImportRowMappingSchema.optional(),
    category: ImportRowMappingSchema.optional(),
    account_type: ImportRowMappingSchema.optional(),
    tags: z.array(ImportRowMappingSchema).max(1_000),
  }),
});
export type ImportRowDiagnostic = z.infer<typeof ImportRowDiagnosticSchema>;

export const ImportRowDiagnosticCollectionSchema = z.object({ data: z.array(ImportRowDiagnosticSchema).max(100), meta: PageMetaSchema });

// ---------------------------------------------------------------- preflight

/** Sure's preflight error codes (the answer is a 200 whose `valid` is false). */
export const IMPORT_PREFLIGHT_ERROR_CODES = ["validation_failed", "missing_required_headers", "duplicate_headers", "no_data_rows"] as const;

export const ImportPreflightErrorSchema = z.object({ code: Text, message: MessageText });
export type ImportPreflightError = z.infer<typeof ImportPreflightErrorSchema>;

/** Sure's answer to a CSV with more rows than the type publishes: a warning, not an error. */
export const ROW_COUNT_WARNING = "Row count exceeds this import type's publish limit.";

export const ImportPreflightSchema = z.object({
  type: ImportTypeSchema,
  valid: z.boolean(),
  /** Ours: the character encoding the file was read in, as an import of it would be. */
  encoding: z.enum(TEXT_ENCODINGS),
  content: z.object({ filename: Text, content_type: Text, byte_size: z.number().int().min(0) }),
  stats: z.object({
    /** CSV: data rows below the header; SureImport: nonblank NDJSON lines. */
    rows_count: z.number().int().min(0),
    /** SureImport only. */
    valid_rows_count: z.number().int().min(0).optional(),
    invalid_rows_count: z.number().int().min(0).optional(),
    entity_counts: CountsSchema.nullable().optional(),
    record_type_counts: CountsSchema.nullable().optional(),
  }),
  /** CSV only: the header row as written (blank headers left out). */
  headers: z.array(CellText).max(IMPORT_CSV_LIMITS.maxColumns).nullable().optional(),
  required_headers: z.array(Text).max(20).nullable().optional(),
  missing_required_headers: z.array(Text).max(20).nullable().optional(),
  errors: z.array(ImportPreflightErrorSchema).max(50),
  warnings: z.array(MessageText).max(50),
});
export type ImportPreflight = z.infer<typeof ImportPreflightSchema>;

export const ImportPreflightResponseSchema = z.object({ data: ImportPreflightSchema });

// ---------------------------------------------------------------- requests

/** The longest file text a request may carry: past IMPORT_CSV_LIMITS.maxBytes it is refused by name (content_too_large), not by the schema. */
export const IMPORT_CONTENT_MAX_CHARS = 12 * 1024 * 1024;
/** The JSON body limit of the import routes: the text escaped as JSON (quotes and newlines doubled at worst). */
export const IMPORT_JSON_LIMIT_BYTES = 26 * 1024 * 1024;

const ContentFields = {
  raw_file_content: z.string().max(IMPORT_CONTENT_MAX_CHARS, { message: "raw_file_content is too long" }).optional(),
  /** Set by the gateway from a multipart upload. */
  filename: z.string().max(255).optional(),
  content_type: z.string().max(255).optional(),
  /**
   * Ours: the character encoding of a multipart file (any label of TEXT_ENCODINGS, e.g.
   * "windows-1252"); left out, the gateway finds it. JSON `raw_file_content` is text already.
   */
  encoding: TextEncodingSchema.optional(),
};

/** POST /api/v1/imports: the content, the request's options and the CSV configuration (a bad one is 422). */
export const ImportCreateBodySchema = z.preprocess(
  withImportTypeDefaults,
  z.intersection(ImportRequestParamsSchema.extend(ContentFields), ImportConfigParamsSchema),
);

const LooseParam = z.union([z.string().max(IMPORT_LABEL_MAX), z.number(), z.boolean(), z.null()]);

/**
 * POST /api/v1/imports/preflight: as create, but a bad configuration is reported in the answer
 * (Sure's preflight), so its parameters are taken loosely, each capped.
 */
export const ImportPreflightBodySchema = z.preprocess(
  withImportTypeDefaults,
  z
    // A malformed account_id is Sure's 404 record_not_found (the handler's), not a 422.
    .object({ type: z.string().max(IMPORT_LABEL_MAX).optional(), account_id: z.string().max(IMPORT_LABEL_MAX).optional(), ...ContentFields })
    .catchall(LooseParam)
    .refine((body) => Object.keys(body).length <= 60, { message: "too many parameters" }),
);

/** Publishing and reverting are ours (Sure publishes from its web UI); they take no body. */
export const ImportActionBodySchema = z.object({}).strict();
