import { setImmediate as nextTurn } from "node:timers/promises";
import chardet from "chardet";
import { AppError, TEXT_ENCODINGS, textEncodingOf, type TextEncoding } from "@hearth/contracts";

/** How the encoding of an upload was chosen, in the order tried. */
export type EncodingSource = "bom" | "parameter" | "content" | "declaration" | "detection";

export interface UploadText {
  text: string;
  encoding: TextEncoding;
  source: EncodingSource;
}

/** The bytes decoded or scanned in one turn of the event loop. */
const SLICE_BYTES = 1024 * 1024;
/**
 * The bytes detection reads: lines holding non-ASCII bytes, each cut to LINE_SAMPLE_BYTES, up to
 * this many in all. chardet reads its sample in one piece: 64 KB held the event loop 50-65 ms
 * (a review's measure, hostile bytes), 16 KB about a quarter of that.
 */
const DETECTION_SAMPLE_BYTES = 16 * 1024;
const LINE_SAMPLE_BYTES = 1024;
/** The start of a file searched for an OFX or XML charset declaration, and for the signs of binary data. */
const HEAD_BYTES = 4096;

const notText = (message: string) => new AppError("invalid_file_type", { message });

function byteOrderMark(bytes: Uint8Array): TextEncoding | undefined {
  if (bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf) return "utf-8";
  if (bytes[0] === 0xff && bytes[1] === 0xfe) return "utf-16le";
  if (bytes[0] === 0xfe && bytes[1] === 0xff) return "utf-16be";
  return undefined;
}

/** UTF-16 without a byte order mark: ASCII text leaves every other byte zero. */
function unmarkedUtf16(head: Uint8Array): TextEncoding | undefined {
  let evenZeros = 0;
  let oddZeros = 0;
  for (let i = 0; i < head.length; i++) {
    if (head[i] !== 0) continue;
    if (i % 2 === 0) evenZeros++;
    else oddZeros++;
  }
  const pairs = Math.floor(head.length / 2);
  if (pairs < 2) return undefined;
  if (oddZeros > pairs * 0.4 && evenZeros < pairs * 0.05) return "utf-16le";
  if (evenZeros > pairs * 0.4 && oddZeros < pairs * 0.05) return "utf-16be";
  return undefined;
}

/**
 * The charset a file names for itself: an OFX 1.x header (`ENCODING:UTF-8`, or `ENCODING:USASCII`
 * with `CHARSET:1252`) or an XML declaration (OFX 2.x: `<?xml version="1.0" encoding="windows-1252"?>`).
 * `CHARSET:NONE` and labels no decoder knows name nothing.
 */
export function declaredEncoding(head: string): TextEncoding | undefined {
  const xml = /^\s*<\?xml[^>]{0,200}?\bencoding\s*=\s*["']([\w.:-]{1,40})["']/i.exec(head);
  if (xml) return textEncodingOf(xml[1]!);
  if (!/^\s*OFXHEADER\s*:/i.test(head)) return undefined;
  // Spaces and tabs only around a header: \\s would span lines, and a head of newlines made the search quadratic.
  const header = (name: string) => new RegExp(`^[ \\t]*${name}[ \\t]*:[ \\t]*([\\w.-]{1,40})[ \\t]*\\r?$`, "im").exec(head)?.[1];
  if (header("ENCODING")?.toUpperCase() === "UTF-8") return "utf-8";
  const charset = header("CHARSET");
  if (!charset || charset.toUpperCase() === "NONE") return undefined;
  // OFX names Windows code pages by number alone ("1252").
  return textEncodingOf(/^\d{3,4}$/.test(charset) ? `windows-${charset}` : charset);
}

/** The lines that hold non-ASCII bytes: what tells one code page from another. */
async function detectionSample(bytes: Uint8Array): Promise<Uint8Array> {
  const parts: Uint8Array[] = [];
  let taken = 0;
  let i = 0;
  let turnAt = SLICE_BYTES;
  while (i < bytes.length && taken < DETECTION_SAMPLE_BYTES) {
    if (i >= turnAt) {
      await nextTurn();
      turnAt = i + SLICE_BYTES;
    }
    if (bytes[i]! < 0x80) {
      i++;
      continue;
    }
    // Searched within a line's sample only: a file without newlines costs no more than one with them.
    const from = Math.max(0, i - LINE_SAMPLE_BYTES / 2);
    const start = from + bytes.subarray(from, i).lastIndexOf(0x0a) + 1;
    const limit = Math.min(bytes.length, start + LINE_SAMPLE_BYTES, start + DETECTION_SAMPLE_BYTES - taken);
    const newline = bytes.subarray(i, limit).indexOf(0x0a);
    const end = newline === -1 ? limit : i + newline + 1;
    parts.push(bytes.subarray(start, end));
    taken += end - start;
    i = end;
  }
  return Buffer.concat(parts);
}

/** Multi-byte encodings (East Asian) are taken only on this much of chardet's confidence: Latin text can pass for them at 10. */
const MULTI_BYTE_CONFIDENCE = 50;
const SINGLE_BYTE = new Set<TextEncoding>(TEXT_ENCODINGS.filter((name) => /^(windows-|iso-8859-|koi8-|macintosh)/.test(name)));
/** Sure's fallbacks (Import::COMMON_ENCODINGS): always weighed, whatever chardet names. */
const COMMON: readonly TextEncoding[] = ["windows-1252", "windows-1250"];
/**
 * chardet's ISO names for what banks and spreadsheets write as the Windows code page of the same
 * script (ICU's recognisers say windows-125x only when they see its 0x80-0x9f bytes; a Polish
 * file without ś is still Windows-1250, where ą is 0xb9, ISO-8859-2's š).
 */
const WINDOWS_SIBLING: Record<string, TextEncoding> = {
  "ISO-8859-2": "windows-1250",
  "ISO-8859-7": "windows-1253",
  "ISO-8859-8": "windows-1255",
  "ISO-8859-6": "windows-1256",
};
/** How common each code page is in what households upload, as a weight on chardet's confidence: the rest count half. */
const PREVALENCE: Partial<Record<TextEncoding, number>> = {
  "windows-1252": 1,
  "windows-1250": 1,
  "windows-1251": 1,
  "windows-1253": 0.9,
  "windows-1254": 0.9,
};
/** Windows-1252 is taken over a likelier-scored code page while it keeps this share of its score: short Western samples often score higher elsewhere. */
const WESTERN_SHARE = 0.6;

/**
 * Characters a code page's text holds inside words only when it was read in the wrong one: a
 * symbol or control between two letters ("spo¿ywczy" is Polish Windows-1250 read as 1252), or a
 * character no byte of it maps to.
 */
function misreadCount(text: string): number {
  let count = 0;
  for (const match of text.matchAll(/(?<=\p{L})[^\p{L}\p{M}\p{ASCII}](?=\p{L})|[\u0080-\u009f\ufffd]/gu)) if (match[0]) count++;
  return count;
}

/**
 * The likeliest encoding of a file that is not UTF-8 and names none: a confident multi-byte
 * match of chardet's; else, of the single-byte code pages chardet names and Sure's common ones,
 * those whose reading of the sample has the fewest misread characters, then the best by
 * chardet's confidence weighed by prevalence, Windows-1252 while it keeps WESTERN_SHARE of that.
 */
async function detectedEncoding(bytes: Uint8Array): Promise<TextEncoding> {
  const sample = await detectionSample(bytes);
  const matches = chardet.analyse(sample);
  const [best] = matches;
  const bestEncoding = best && textEncodingOf(best.name);
  if (bestEncoding && !SINGLE_BYTE.has(bestEncoding) && bestEncoding !== "utf-8" && best.confidence >= MULTI_BYTE_CONFIDENCE) return bestEncoding;

  const score = new Map<TextEncoding, number>(COMMON.map((encoding) => [encoding, 0]));
  for (const match of matches) {
    const encoding = WINDOWS_SIBLING[match.name] ?? textEncodingOf(match.name);
    if (!encoding || !SINGLE_BYTE.has(encoding)) continue;
    score.set(encoding, Math.max(score.get(encoding) ?? 0, match.confidence * (PREVALENCE[encoding] ?? 0.5)));
  }
  const scored: { encoding: TextEncoding; weighed: number; misread: number }[] = [];
  for (const [encoding, weighed] of score) {
    await nextTurn();
    scored.push({ encoding, weighed, misread: misreadCount(new TextDecoder(encoding).decode(sample)) });
  }
  const fewest = Math.min(...scored.map((candidate) => candidate.misread));
  const plausible = scored.filter((candidate) => candidate.misread === fewest).sort((a, b) => b.weighed - a.weighed);
  const western = plausible.find((candidate) => candidate.encoding === "windows-1252");
  if (western && western.weighed >= plausible[0]!.weighed * WESTERN_SHARE) return "windows-1252";
  return plausible[0]!.encoding;
}

/**
 * The bytes' text, a slice per turn of the event loop: decoding 10 MB of Windows-1252 in one
 * piece held the gateway's loop 50 to 90 ms, and every other family's requests with it.
 */
async function decode(bytes: Uint8Array, encoding: TextEncoding, fatal: boolean): Promise<string> {
  const decoder = new TextDecoder(encoding, { fatal });
  const parts: string[] = [];
  try {
    for (let at = 0; at < bytes.length; at += SLICE_BYTES) {
      if (at > 0) await nextTurn();
      parts.push(decoder.decode(bytes.subarray(at, at + SLICE_BYTES), { stream: true }));
    }
    parts.push(decoder.decode());
  } catch {
    throw notText(encoding === "utf-8" ? "The file is not UTF-8 text" : `The file is not ${encoding} text`);
  }
  return parts.join("");
}

/**
 * A body whose content came as text (JSON, or a form's text field) needs no decoding: an
 * `encoding` naming anything but UTF-8 there would say what is not so, and is refused.
 */
export function assertAlreadyText(body: unknown): void {
  if (typeof body !== "object" || body === null || !("encoding" in body)) return;
  const { encoding } = body;
  if (encoding === undefined || encoding === null || encoding === "") return;
  if (typeof encoding === "string" && textEncodingOf(encoding) === "utf-8") return;
  throw new AppError("validation_failed", {
    message:
      "encoding names the character set of an uploaded file: raw_file_content sent as text is already decoded (send the file as multipart to have it read in another encoding)",
  });
}

/**
 * An uploaded file's text, in this order: its byte order mark; the encoding the request names;
 * UTF-8 when the bytes are valid UTF-8 (text in a single-byte code page almost never is, and
 * banks' OFX headers often declare 1252 over UTF-8 bytes); the charset the file declares; else
 * the likeliest by detection on the lines that hold non-ASCII bytes. A file with NUL bytes that
 * is not UTF-16 is binary, not text.
 */
export async function uploadText(bytes: Uint8Array, requested?: TextEncoding): Promise<UploadText> {
  const bom = byteOrderMark(bytes);
  if (bom) return { text: await decode(bytes, bom, true), encoding: bom, source: "bom" };
  if (requested) return { text: await decode(bytes, requested, true), encoding: requested, source: "parameter" };
  const head = bytes.subarray(0, HEAD_BYTES);
  const utf16 = unmarkedUtf16(head);
  if (utf16) return { text: await decode(bytes, utf16, true), encoding: utf16, source: "content" };
  if (head.includes(0)) throw notText("The file is not text: it holds binary data");

  const declared = declaredEncoding(Buffer.from(head).toString("latin1"));
  const utf8 = await decode(bytes, "utf-8", true).catch(() => undefined);
  if (utf8 !== undefined) {
    // Plain ASCII is every ASCII-based charset at once: it is what the file says it is.
    const ascii = utf8.length === bytes.length;
    return ascii && declared ? { text: utf8, encoding: declared, source: "declaration" } : { text: utf8, encoding: "utf-8", source: "content" };
  }
  if (declared && declared !== "utf-8") return { text: await decode(bytes, declared, false), encoding: declared, source: "declaration" };
  const detected = await detectedEncoding(bytes);
  return { text: await decode(bytes, detected, false), encoding: detected, source: "detection" };
}
