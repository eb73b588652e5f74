import { isBlank, isJsonObject, presence } from "./field-schemas";

/** Sure's split_lines_value: split_lines, else splitLines, else splits (the first present). */
export function splitLinesOf(data: Record<string, unknown>): unknown {
  return presence(data["split_lines"]) ?? presence(data["splitLines"]) ?? presence(data["splits"]);
}

/** Ruby's `a || b`: the first value that is neither nil nor false. */
const firstTruthy = (...values: unknown[]): unknown => values.find((value) => value !== null && value !== undefined && value !== false);

/** Sure's split_line_amount: amount, else amount_money, else amount_decimal. */
export function splitLineAmountOf(line: Record<string, unknown>): unknown {
  return firstTruthy(line["amount"], line["amount_money"], line["amount_decimal"]);
}

/** A split line with Sure's aliases resolved, and whether it names its own merchant and tags (else it keeps the parent's). */
export function withSplitLineAliases(line: unknown): unknown {
  if (!isJsonObject(line)) return line;
  return {
    ...line,
    amount: splitLineAmountOf(line),
    name: presence(line["name"]) ?? presence(line["memo"]) ?? presence(line["description"]),
    merchant_id_provided: Object.hasOwn(line, "merchant_id"),
    tag_ids_provided: Object.hasOwn(line, "tag_ids"),
  };
}

/** A Transaction record with its split lines under split_lines whatever the exporter named them. */
export function withSplitLinesAlias(data: unknown): unknown {
  if (!isJsonObject(data)) return data;
  const lines = splitLinesOf(data);
  return { ...data, split_lines: isBlank(lines) ? undefined : lines };
}
