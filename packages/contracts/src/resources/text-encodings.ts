import { z } from "zod";

/**
 * The character encodings an uploaded file may be in, by the names TextDecoder (the WHATWG
 * Encoding Standard) gives them: UTF-8 and UTF-16, the Windows and ISO code pages European and
 * American banks export in, and the common East Asian and Cyrillic ones. ISO-8859-1 is read as
 * windows-1252, its superset, as browsers do.
 */
export const TEXT_ENCODINGS = [
  "utf-8",
  "utf-16le",
  "utf-16be",
  "windows-1250",
  "windows-1251",
  "windows-1252",
  "windows-1253",
  "windows-1254",
  "windows-1255",
  "windows-1256",
  "windows-1257",
  "windows-1258",
  "iso-8859-2",
  "iso-8859-5",
  "iso-8859-7",
  "iso-8859-15",
  "koi8-r",
  "macintosh",
  "shift_jis",
  "euc-jp",
  "euc-kr",
  "gbk",
  "gb18030",
  "big5",
] as const;
export type TextEncoding = (typeof TEXT_ENCODINGS)[number];

const ENCODING_LABEL_MAX = 40;

/** The encoding a label names ("UTF8", "latin1", "cp1250", "ISO-8859-2"), if it is one of TEXT_ENCODINGS. */
export function textEncodingOf(label: string): TextEncoding | undefined {
  if (label.length > ENCODING_LABEL_MAX) return undefined;
  let name: string;
  try {
    name = new TextDecoder(label.trim()).encoding;
  } catch {
    return undefined;
  }
  return (TEXT_ENCODINGS as readonly string[]).includes(name) ? (name as TextEncoding) : undefined;
}

/** An `encoding` parameter: any label of a supported encoding, answered by its name. */
export const TextEncodingSchema = z.string().transform((label, ctx) => {
  const encoding = textEncodingOf(label);
  if (encoding) return encoding;
  ctx.addIssue({ code: "custom", message: `encoding must name one of: ${TEXT_ENCODINGS.join(", ")}` });
  return z.NEVER;
});
