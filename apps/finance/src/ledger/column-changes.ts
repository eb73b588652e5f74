/**
 * The columns a PATCH body changes, each under its column name; an omitted field (undefined)
 * changes nothing. `columns` must name a column for every field of the body, so a field added
 * to the contract fails to type-check here until it is given one.
 */
export function changedColumns<I extends object, const C extends { [K in keyof Required<I>]: string }>(input: I, columns: C) {
  const data: Record<string, unknown> = {};
  for (const field of Object.keys(columns) as (keyof I & keyof C)[]) {
    if (input[field] !== undefined) data[columns[field]] = input[field];
  }
  return data as { [K in keyof I & keyof C as C[K]]?: Exclude<I[K], undefined> };
}
