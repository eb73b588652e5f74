import { parseDateByFormat } from "../parsing/date-format";
import type { Read } from "../statement-files/statement-row";

const NAMED_ENTITIES: Record<string, string> = { amp: "&", lt: "<", gt: ">", quot: '"', apos: "'", nbsp: "\u00a0" };
/** The longest entity read ("&#x10FFFF;"). */
const ENTITY_MAX = 10;

/** The character an entity's body ("amp", "#233", "#xE9") stands for, or null when it is none we know. */
function entityChar(body: string): string | null {
  if (body.startsWith("#")) {
    const hex = body[1] === "x" || body[1] === "X";
    const digits = body.slice(hex ? 2 : 1);
    if (digits === "" || ![...digits].every((char) => (hex ? /^[0-9a-fA-F]$/.test(char) : char >= "0" && char <= "9"))) return null;
    const code = Number.parseInt(digits, hex ? 16 : 10);
    // Control characters and lone surrogates stay written out: the ledger stores text only.
    if (code < 32 || code > 0x10ffff || (code >= 0xd800 && code <= 0xdfff)) return null;
    return String.fromCodePoint(code);
  }
  return Object.hasOwn(NAMED_ENTITIES, body) ? NAMED_ENTITIES[body]! : null;
}

/** An element's text with its character references decoded (&amp;, &lt;, &#233; ...); others are kept as written. */
export function decodeOfxText(text: string): string {
  let at = text.indexOf("&");
  if (at === -1) return text;
  let decoded = "";
  let from = 0;
  while (at !== -1) {
    const end = text.indexOf(";", at + 1);
    const char = end !== -1 && end - at <= ENTITY_MAX ? entityChar(text.slice(at + 1, end)) : null;
    if (char !== null) {
      decoded += text.slice(from, at) + char;
      from = end + 1;
    }
    at = text.indexOf("&", char !== null ? end + 1 : at + 1);
  }
  return decoded + text.slice(from);
}

const CDATA_OPEN = "<![CDATA[";
const CDATA_CLOSE = "]]>";

/**
 * An element's text as its reader means it: trimmed, character references decoded, and a CDATA
 * section's content taken as written (some banks wrap OFX 2 payees so, "<NAME><![CDATA[EFTPOS
 * ...]]></NAME>": left in, the markup spoilt names, notes and rule matching).
 */
export function ofxElementText(raw: string): string {
  let at = raw.indexOf(CDATA_OPEN);
  if (at === -1) return decodeOfxText(raw.trim());
  let text = "";
  let from = 0;
  while (at !== -1) {
    const end = raw.indexOf(CDATA_CLOSE, at + CDATA_OPEN.length);
    if (end === -1) break;
    text += decodeOfxText(raw.slice(from, at)) + raw.slice(at + CDATA_OPEN.length, end);
    from = end + CDATA_CLOSE.length;
    at = raw.indexOf(CDATA_OPEN, from);
  }
  return (text + decodeOfxText(raw.slice(from))).trim();
}

/** Whole digits and decimals an amount may have, as CSV amounts (parsing/number-format.ts). */
const MAX_WHOLE_DIGITS = 15;
const MAX_FRACTION_DIGITS = 20;
const isDigit = (char: string | undefined) => char !== undefined && char >= "0" && char <= "9";

/**
 * An OFX amount (TRNAMT) as plain decimal text: an optional sign, digits, and one "." or ","
 * before the decimals (OFX allows either; it has no thousands separator, so "1,000.00" is
 * refused rather than guessed at). Signed as the file signs it: negative is money out.
 */
export function readOfxAmount(text: string): Read<string> {
  let at = 0;
  let negative = false;
  if (text[at] === "-" || text[at] === "+") negative = text[at++] === "-";
  let whole = "";
  while (isDigit(text[at])) whole += text[at++];
  let fraction = "";
  if (text[at] === "." || text[at] === ",") {
    at++;
    while (isDigit(text[at])) fraction += text[at++];
  }
  if (at !== text.length || (whole === "" && fraction === "")) {
    return { ok: false, message: "Amount is not an OFX amount (digits, with a '.' or ',' before the decimals)" };
  }
  let zeros = 0;
  while (zeros < whole.length - 1 && whole[zeros] === "0") zeros++;
  whole = whole.slice(zeros) || "0";
  if (whole.length > MAX_WHOLE_DIGITS || fraction.length > MAX_FRACTION_DIGITS) return { ok: false, message: "Amount is too large" };
  const zero = whole === "0" && ![...fraction].some((char) => char !== "0");
  return { ok: true, value: `${negative && !zero ? "-" : ""}${whole}${fraction !== "" ? `.${fraction}` : ""}` };
}

/**
 * An OFX date (DTPOSTED: "YYYYMMDD", maybe followed by a time, fractions and a time zone,
 * "20240115120000.000[-5:EST]") as the ISO day the bank wrote, its time and zone set aside.
 */
export function readOfxDate(text: string): Read<string> {
  const rest = text[8];
  const day = text.length >= 8 && (rest === undefined || isDigit(rest) || rest === "." || rest === "[") ? parseDateByFormat(text.slice(0, 8), "%Y%m%d") : null;
  return day !== null ? { ok: true, value: day } : { ok: false, message: "Date is not an OFX date (YYYYMMDD, then maybe a time)" };
}
