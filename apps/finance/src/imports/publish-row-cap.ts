import { importMaxRowCount, type ImportType } from "@hearth/contracts";
import { SURE_NDJSON_LIMITS } from "./ndjson/limits";

/** The most rows an import of `type` may publish (Sure's max_row_count: 50 accounts, 10,000 rows, a SureImport's records). */
export function publishRowCap(type: string): number {
  return type === "SureImport" ? SURE_NDJSON_LIMITS.maxRows : importMaxRowCount(type as ImportType);
}
