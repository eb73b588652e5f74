import {
  ImportConfigParamsSchema,
  textEncodingOf,
  type ImportAccountName,
  type ImportDetail,
  type ImportRowDiagnostic,
  type ImportRowMapping,
  type ImportSummary,
  type ImportType,
} from "@hearth/contracts";
import type { Import, ImportRow } from "../generated/prisma/client";

type StoredImport = Omit<Import, "content">;

/** What a family already has under the names rows use (for the rows' mappings). */
export interface KnownNames {
  accounts: Map<string, { id: string; name: string }>;
  categories: Map<string, { id: string; name: string }>;
  tags: Map<string, { id: string; name: string }>;
}

const TERMINAL = new Set(["complete", "failed", "revert_failed"]);

function statusSummary(row: StoredImport) {
  // Rows are read at upload: an import exists only with its content, configured by its parameters.
  return { uploaded: true, configured: true, terminal: TERMINAL.has(row.status) };
}

function identity(row: StoredImport) {
  return {
    id: row.id,
    type: row.type as ImportType,
    status: row.status,
    created_at: row.createdAt.toISOString(),
    updated_at: row.updatedAt.toISOString(),
    account_id: row.accountId,
    ...(row.error ? { error: row.error } : {}),
  };
}

export function toImportSummary(row: StoredImport): ImportSummary {
  return { ...identity(row), rows_count: row.rowsCount, status_detail: statusSummary(row) };
}

/** `accountNames`: the names its rows give their accounts, with where each goes (see importAccountNames); none when it names one account. */
export function toImportDetail(row: StoredImport, accountNames: ImportAccountName[] = []): ImportDetail {
  const config = ImportConfigParamsSchema.parse(row.configuration);
  const invalid = row.rowsCount - row.validRowsCount;
  const unassigned = unmappedAccountNames(accountNames).length;
  const cleaned = invalid === 0 && row.rowsCount > 0;
  return {
    ...identity(row),
    status_detail: {
      ...statusSummary(row),
      cleaned,
      publishable: cleaned && unassigned === 0 && row.status === "pending",
      revertable: row.status === "complete",
    },
    configuration: {
      date_col_label: config.date_col_label,
      amount_col_label: config.amount_col_label,
      name_col_label: config.name_col_label,
      category_col_label: config.category_col_label,
      tags_col_label: config.tags_col_label,
      notes_col_label: config.notes_col_label,
      account_col_label: config.account_col_label,
      date_format: config.date_format,
      number_format: config.number_format,
      signage_convention: config.signage_convention,
    },
    // Categories and tags are found or made at publish; account names wait for an account (Sure's account mappings).
    stats: {
      rows_count: row.rowsCount,
      valid_rows_count: row.validRowsCount,
      invalid_rows_count: invalid,
      mappings_count: accountNames.length,
      unassigned_mappings_count: unassigned,
    },
    account_names: accountNames,
    encoding: textEncodingOf(row.encoding) ?? "utf-8",
    progress: { rows_done: row.rowsDone, rows_total: row.rowsCount },
    result: (row.result as Record<string, number> | null) ?? null,
  };
}

/** The names that go nowhere yet: publishing waits for them. */
export const unmappedAccountNames = (names: readonly ImportAccountName[]) => names.filter((name) => name.account === null && !name.create);

function mapping(
  type: ImportRowMapping["type"],
  key: string,
  known: { id: string; name: string } | undefined,
  creatable: boolean,
  mappableType: string,
): ImportRowMapping {
  return {
    key,
    type,
    value: null,
    create_when_empty: creatable,
    creatable,
    mappable: known ? { id: known.id, type: mappableType, name: known.name } : null,
  };
}

export function toRowDiagnostic(row: ImportRow, known: KnownNames, importAccount: string | null): ImportRowDiagnostic {
  const fields = row.fields as ImportRowDiagnostic["fields"];
  const errors = (row.errors as { message: string }[]).map((error) => error.message);
  const tags = ((row.values as { tags?: string[] } | null)?.tags ?? []).map((name) => mapping("Import::TagMapping", name, known.tags.get(name), true, "Tag"));
  return {
    id: row.id,
    row_number: row.rowNumber,
    valid: errors.length === 0,
    errors,
    fields,
    mappings: {
      ...(fields.account && !importAccount
        ? { account: mapping("Import::AccountMapping", fields.account, known.accounts.get(fields.account.toLowerCase()), false, "Account") }
        : {}),
      ...(fields.category ? { category: mapping("Import::CategoryMapping", fields.category, known.categories.get(fields.category), true, "Category") } : {}),
      tags,
    },
  };
}
