import {
  AppError,
  CSV_IMPORT_TYPES,
  IMPORT_ACCOUNT_NAMES_MAX,
  IMPORT_CSV_LIMITS,
  IMPORT_TYPES,
  isTransactionCsvType,
  importMaxRowCount,
  pageMetaOf,
  pageWindow,
  type CsvImportType,
  type ImportAccountName,
  type ImportConfig,
  UUID_TEXT,
} from "@hearth/contracts";
import type { RouteHandlers } from "@hearth/service-kit";
import type { ImportRepository, StoredRow } from "./import-repository";
import { toImportDetail, toImportSummary, toRowDiagnostic, unmappedAccountNames } from "./import-resource";
import { ImportParseError, preflightCsvImport, readCsvImport } from "./parsing";
import { PUBLISHERS } from "./publish/publishers";
import { publishRowCap } from "./publish-row-cap";
import { createStatementImport, isStatementFileType, preflightStatementImport } from "./statement-files/statement-upload";
import { createSureImport, preflightSureImport } from "./sure-import-upload";
import { assertRatesForImport } from "./currencies/foreign-currencies";

type Handlers = Pick<
  RouteHandlers<"finance">,
  | "imports.list"
  | "imports.get"
  | "imports.rows"
  | "imports.create"
  | "imports.preflight"
  | "imports.publish"
  | "imports.accountMappings"
  | "imports.revert"
  | "imports.delete"
>;

/** The types this service publishes today (publishers.ts); the others are read and checked (rows, preflight) but not yet written. */
const PUBLISHABLE_TYPES: ReadonlySet<string> = new Set(Object.keys(PUBLISHERS));

const isCsvType = (type: string): type is CsvImportType => (CSV_IMPORT_TYPES as readonly string[]).includes(type);
const today = () => new Date().toISOString().slice(0, 10);

/** Reads a parse failure of the whole file as Sure's error for it. */
async function parsed<T>(read: () => Promise<T>): Promise<T> {
  try {
    return await read();
  } catch (err) {
    if (err instanceof ImportParseError) throw err.toAppError();
    throw err;
  }
}

/** Sure's imports controller over finance's imports: rows are read and checked at upload, published in the background. */
export function createImportHandlers(imports: ImportRepository, familyCurrency: (familyId: string) => Promise<string>, queued: () => void): Handlers {
  /**
   * The currency of the import's account. An account not of the family is answered as Sure does:
   * on create 422 (Import#account_belongs_to_family), on preflight 404 record_not_found, malformed
   * ids too (Import::Preflight#preflight_account).
   */
  async function accountCurrency(familyId: string, accountId: string | undefined, on: "create" | "preflight" = "create"): Promise<string | null> {
    if (accountId === undefined) return null;
    const account = UUID_TEXT.test(accountId) ? await imports.accountOf(familyId, accountId) : null;
    if (account) return account.currency;
    if (on === "preflight") throw new AppError("record_not_found");
    throw new AppError("validation_failed", { message: "Import could not be created", errors: ["Account must belong to your family"] });
  }

  async function findImport(familyId: string, id: string) {
    const found = await imports.find(familyId, id);
    if (!found) throw AppError.notFound("Import");
    return found;
  }

  /** The names its rows give their accounts, when they name theirs (transactions and trades) and it names no account of its own. */
  async function accountNamesOf(familyId: string, found: { id: string; type: string; accountId: string | null }): Promise<ImportAccountName[]> {
    const namesAccounts = isTransactionCsvType(found.type) || found.type === "TradeImport" || found.type === "QifImport";
    return namesAccounts && found.accountId === null ? await imports.accountNames(familyId, found.id) : [];
  }

  async function detailOf(familyId: string, id: string) {
    const found = await findImport(familyId, id);
    return toImportDetail(found, (await accountNamesOf(familyId, found)).slice(0, IMPORT_ACCOUNT_NAMES_MAX));
  }

  /** 422 not_publishable while names of the file go to no account (Sure's unassigned account mappings). */
  async function assertAccountsMapped(familyId: string, found: { id: string; type: string; accountId: string | null }): Promise<void> {
    const unmapped = unmappedAccountNames(await accountNamesOf(familyId, found));
    if (unmapped.length === 0) return;
    const named = unmapped.slice(0, 10).map((each) => (each.name === "" ? "(rows without an account)" : JSON.stringify(each.name)));
    throw new AppError("not_publishable", {
      message: `Say which account each name of the file goes to before publishing: ${named.join(", ")} (PUT /api/v1/imports/${found.id}/account_mappings, an account_id or create)`,
      importId: found.id,
    });
  }

  return {
    "imports.list": async ({ ctx, input }) => {
      const { rows, total } = await imports.list(ctx.actor.familyId, { status: input.status, type: input.type }, pageWindow(input));
      return { data: rows.map(toImportSummary), meta: pageMetaOf(input, total) };
    },

    "imports.get": async ({ ctx, input }) => ({ data: await detailOf(ctx.actor.familyId, input.id) }),

    "imports.rows": async ({ ctx, input }) => {
      const found = await findImport(ctx.actor.familyId, input.id);
      const { rows, total } = await imports.rows(found.id, pageWindow(input));
      const names = { accounts: new Set<string>(), categories: new Set<string>(), tags: new Set<string>() };
      for (const row of rows) {
        const values = row.values as { account?: string; category?: string; tags?: string[] } | null;
        if (values?.account) names.accounts.add(values.account);
        if (values?.category) names.categories.add(values.category);
        for (const tag of values?.tags ?? []) names.tags.add(tag);
      }
      const known = await imports.knownNames(ctx.actor.familyId, { accounts: [...names.accounts], categories: [...names.categories], tags: [...names.tags] });
      // A name the user mapped goes where they said, not to the account of its name.
      for (const each of await accountNamesOf(ctx.actor.familyId, found)) {
        if (each.account) known.accounts.set(each.name.toLowerCase(), each.account);
        else known.accounts.delete(each.name.toLowerCase());
      }
      return { data: rows.map((row) => toRowDiagnostic(row, known, found.accountId)), meta: pageMetaOf(input, total) };
    },

    "imports.create": async ({ ctx, input, signal }) => {
      const familyId = ctx.actor.familyId;
      const { type, account_id: accountId, publish, raw_file_content: content, filename: _filename, content_type: _contentType, encoding, ...params } = input;
      if (type === "SureImport") {
        const upload = { content, filename: input.filename, contentType: input.content_type, encoding };
        const id = await createSureImport(imports, familyId, upload, { currency: await familyCurrency(familyId), publish: publish === true, queued });
        return { data: await detailOf(familyId, id) };
      }
      if (isStatementFileType(type)) {
        const upload = { type, content, filename: input.filename, contentType: input.content_type, encoding, accountId, config: params as ImportConfig };
        const currency = (await accountCurrency(familyId, accountId)) ?? (await familyCurrency(familyId));
        const beforePublish = async (importId: string) => {
          await assertRatesForImport(imports, familyId, importId, accountId ?? null);
          await assertAccountsMapped(familyId, { id: importId, type, accountId: accountId ?? null });
        };
        const id = await createStatementImport(imports, familyId, upload, {
          currency,
          today: today(),
          publish: publish === true,
          queued,
          signal,
          beforePublish,
        });
        return { data: await detailOf(familyId, id) };
      }
      if (!isCsvType(type)) throw AppError.validation([`${type} imports are not supported yet: send CSV content with a CSV import type`]);
      if (content === undefined || content === "") throw new AppError("missing_content");
      if (Buffer.byteLength(content, "utf8") > IMPORT_CSV_LIMITS.maxBytes) {
        throw new AppError("content_too_large", { message: `Content is too large. Maximum size is ${IMPORT_CSV_LIMITS.maxBytes / (1024 * 1024)}MB.` });
      }
      const config = params as ImportConfig;
      const currency = (await accountCurrency(familyId, accountId)) ?? (await familyCurrency(familyId));
      const read = await parsed(() =>
        readCsvImport(
          type,
          content,
          { config, defaultCurrency: currency, today: today(), hasAccount: accountId !== undefined },
          { source: input.filename !== undefined ? "file" : "content", signal },
        ),
      );
      if (read.errors.length > 0) throw AppError.validation(read.errors.map((error) => error.message));
      if (read.rows.length === 0) throw AppError.validation(["The file has no data rows"]);
      const rows: StoredRow[] = read.rows.map((row) => ({
        rowNumber: row.row_number,
        fields: row.fields,
        errors: row.errors,
        values: row.values as Record<string, unknown> | null,
      }));
      const created = await imports.create(familyId, { type, accountId: accountId ?? null, configuration: config, content, encoding, rows });
      if (publish) {
        // Sure publishes a configured import asked to; one that cannot be is stored and named in the error.
        if (read.rows.length > importMaxRowCount(type)) {
          throw new AppError("max_row_count_exceeded", {
            message: "Import was uploaded but has too many rows to publish automatically.",
            importId: created.id,
          });
        }
        if (created.validRowsCount < created.rowsCount || !PUBLISHABLE_TYPES.has(type)) {
          throw new AppError("not_publishable", {
            message: PUBLISHABLE_TYPES.has(type)
              ? "Import was uploaded but has rows with errors: see its rows."
              : `Import was uploaded but ${type} publishing is not available yet.`,
            importId: created.id,
          });
        }
        await assertRatesForImport(imports, familyId, created.id, accountId ?? null);
        await assertAccountsMapped(familyId, { id: created.id, type, accountId: accountId ?? null });
        await imports.requestPublish(familyId, created.id);
        queued();
      }
      return { data: await detailOf(familyId, created.id) };
    },

    "imports.preflight": async ({ ctx, input, signal }) => {
      const {
        type = "TransactionImport",
        account_id: accountId,
        raw_file_content: content,
        filename,
        content_type: contentType,
        encoding = "utf-8",
        ...params
      } = input;
      if (type === "SureImport") {
        const familyId = ctx.actor.familyId;
        const names = await imports.taxonomyNames(familyId);
        const preflight = await preflightSureImport({ content, filename, contentType }, await familyCurrency(familyId), familyId, names);
        return { data: { ...preflight, encoding } };
      }
      if (isStatementFileType(type)) {
        const currency = (await accountCurrency(ctx.actor.familyId, accountId, "preflight")) ?? (await familyCurrency(ctx.actor.familyId));
        const account = accountId === undefined ? undefined : { familyId: ctx.actor.familyId, currency, rates: imports };
        const preflight = await preflightStatementImport({ type, content, filename, contentType }, params, { currency, today: today(), signal, account });
        return { data: { ...preflight, encoding } };
      }
      // Sure's Import::Preflight#invalid_import_type_response (imports_controller_test.rb "should reject unknown preflight import type").
      if (!isCsvType(type)) throw new AppError("invalid_import_type", { message: `type must be one of: ${IMPORT_TYPES.join(", ")}` });
      if (content === undefined || content === "") throw new AppError("missing_content");
      await accountCurrency(ctx.actor.familyId, accountId, "preflight");
      const source = filename !== undefined ? "file" : "content";
      const preflight = await parsed(() => preflightCsvImport({ type, params, content, filename, contentType, source, signal }));
      return { data: { ...preflight, encoding } };
    },

    "imports.publish": async ({ ctx, input }) => {
      const found = await findImport(ctx.actor.familyId, input.id);
      if (!PUBLISHABLE_TYPES.has(found.type))
        throw new AppError("not_publishable", { message: `${found.type} publishing is not available yet.`, importId: found.id });
      if (found.validRowsCount < found.rowsCount)
        throw new AppError("not_publishable", { message: "Import has rows with errors: see its rows.", importId: found.id });
      // The same cap as a publish asked for at upload (Sure's publish_later checks it too).
      if (found.rowsCount > publishRowCap(found.type))
        throw new AppError("max_row_count_exceeded", { message: "Import has too many rows to publish.", importId: found.id });
      await assertRatesForImport(imports, ctx.actor.familyId, found.id, found.accountId);
      await assertAccountsMapped(ctx.actor.familyId, found);
      if (!(await imports.requestPublish(ctx.actor.familyId, found.id))) {
        throw new AppError("not_publishable", { message: `Import is ${found.status}: only a pending or failed import can be published.`, importId: found.id });
      }
      queued();
      return { data: await detailOf(ctx.actor.familyId, found.id) };
    },

    "imports.delete": async ({ ctx, input }) => {
      const removed = await imports.remove(ctx.actor.familyId, input.id);
      if (removed === null) throw AppError.notFound("Import");
      if (!removed) throw new AppError("conflict", { message: "The import is being published or reverted: delete it once that has ended" });
    },

    "imports.accountMappings": async ({ ctx, input }) => {
      const familyId = ctx.actor.familyId;
      const found = await findImport(familyId, input.id);
      if (found.accountId !== null) throw AppError.validation(["The import names one account (account_id): its rows' account names are not mapped"]);
      const names = new Set((await imports.accountNames(familyId, found.id)).map((each) => each.name));
      if (input.mappings.some((mapping) => mapping.name === "" && mapping.create === true)) {
        throw AppError.validation(["Rows that name no account cannot make a new one: map them to an account_id"]);
      }
      const unknown = input.mappings.filter((mapping) => !names.has(mapping.name));
      if (unknown.length > 0) throw AppError.validation(unknown.slice(0, 10).map((mapping) => `The file names no account ${JSON.stringify(mapping.name)}`));
      const ids = [...new Set(input.mappings.flatMap((mapping) => (mapping.account_id ? [mapping.account_id] : [])))];
      const live = await imports.liveAccountIds(familyId, ids);
      if (ids.some((id) => !live.has(id))) throw new AppError("not_found", { message: "Account not found" });
      const mappings = input.mappings.map((mapping) => ({ name: mapping.name, accountId: mapping.account_id ?? null, create: mapping.create === true }));
      if (!(await imports.saveAccountMappings(familyId, found.id, mappings))) {
        throw new AppError("conflict", { message: `Import is ${found.status}: its account names are mapped only before it is published` });
      }
      return { data: await detailOf(familyId, found.id) };
    },

    "imports.revert": async ({ ctx, input }) => {
      const reverted = await imports.revert(ctx.actor.familyId, input.id);
      if (reverted === null) throw AppError.notFound("Import");
      if (!reverted) throw new AppError("conflict", { message: "Only a complete import can be reverted" });
      return { data: await detailOf(ctx.actor.familyId, input.id) };
    },
  };
}
