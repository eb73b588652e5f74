/**
 * The longest text each field of an audit event may hold, in UTF-16 code units (what zod's
 * `max` counts). Request facts come from clients (a User-Agent header can be 16 KiB) and
 * events travel in batches to receivers that refuse bodies over 1 MiB, so every event stays
 * small: at most about 70 KB with every field full.
 */
export const AUDIT_TEXT_LIMITS = {
  email: 320,
  provider: 200,
  ipAddress: 100,
  userAgent: 512,
  sessionId: 200,
  requestId: 200,
  error: 1000,
  action: 100,
  resource: 100,
  /** Each string inside `changes` (a field's old or new value). */
  changeValue: 500,
} as const;

/** `changes` serialised as JSON, in UTF-8 bytes. */
export const AUDIT_CHANGES_MAX_BYTES = 32 * 1024;

/** What stands for a change's values when the changes are over their byte limit (the field name stays). */
export const OMITTED_CHANGE = "[OMITTED]";

const ELLIPSIS = "…";

/**
 * `text` cut to at most `max` code units, ending in "…" when cut. Never ends on the first half
 * of a surrogate pair, so the result is as well formed as the input.
 */
export function truncateText(text: string, max: number): string {
  if (text.length <= max) return text;
  let end = max - ELLIPSIS.length;
  const last = text.charCodeAt(end - 1);
  if (last >= 0xd800 && last <= 0xdbff) end -= 1;
  return text.slice(0, end) + ELLIPSIS;
}

export function utf8Bytes(text: string): number {
  return new TextEncoder().encode(text).length;
}

/** Every string inside a JSON-like value, cut to `max`. */
function truncateStrings(value: unknown, max: number): unknown {
  if (typeof value === "string") return truncateText(value, max);
  if (Array.isArray(value)) return value.map((item) => truncateStrings(item, max));
  if (value !== null && typeof value === "object") return Object.fromEntries(Object.entries(value).map(([key, item]) => [key, truncateStrings(item, max)]));
  return value;
}

/**
 * Changes that fit the contract: strings cut to their limit and, past the byte limit, the
 * values of the remaining fields replaced by OMITTED_CHANGE (which fields changed still shows).
 */
export function capChanges<C extends Record<string, { old: unknown; new: unknown }>>(changes: C): C {
  const capped: Record<string, { old: unknown; new: unknown }> = {};
  let bytes = 2; // {}
  for (const [field, change] of Object.entries(changes)) {
    const key = truncateText(field, AUDIT_TEXT_LIMITS.changeValue);
    let entry = { old: truncateStrings(change.old, AUDIT_TEXT_LIMITS.changeValue), new: truncateStrings(change.new, AUDIT_TEXT_LIMITS.changeValue) };
    let entryBytes = utf8Bytes(JSON.stringify({ [key]: entry })) - 1;
    if (bytes + entryBytes > AUDIT_CHANGES_MAX_BYTES) {
      entry = { old: OMITTED_CHANGE, new: OMITTED_CHANGE };
      entryBytes = utf8Bytes(JSON.stringify({ [key]: entry })) - 1;
      if (bytes + entryBytes > AUDIT_CHANGES_MAX_BYTES) break;
    }
    capped[key] = entry;
    bytes += entryBytes;
  }
  return capped as C;
}
