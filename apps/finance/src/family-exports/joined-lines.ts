/*
 * all.ndjson as bytes: the database's JSON lines, streamed, escaped as Rails' encoder writes them
 * (railsEscape in sure-values.ts) without decoding them to strings and back (half a gigabyte for
 * a million transactions): the characters escaped are found by byte, nearly always none.
 */

const LT = 0x3c;
const GT = 0x3e;
const AMP = 0x26;
/** The lead byte of U+2028 and U+2029 in UTF-8 (E2 80 A8, E2 80 A9); also of other characters (€ is E2 82 AC). */
const E2 = 0xe2;
const NEWLINE = 0x0a;

const ESCAPED: Record<number, Buffer> = {
  [LT]: Buffer.from("\\u003c"),
  [GT]: Buffer.from("\\u003e"),
  [AMP]: Buffer.from("\\u0026"),
  0xa8: Buffer.from("\\u2028"),
  0xa9: Buffer.from("\\u2029"),
};

const mayNeedEscapes = (bytes: Buffer) => bytes.includes(LT) || bytes.includes(GT) || bytes.includes(AMP) || bytes.includes(E2);

/** `bytes` (whole UTF-8 characters) with <, >, &, U+2028 and U+2029 written as Rails' \uXXXX escapes. */
export function railsEscapeBytes(bytes: Buffer): Buffer {
  if (!mayNeedEscapes(bytes)) return bytes;
  const parts: Buffer[] = [];
  let from = 0;
  for (let i = 0; i < bytes.length; i++) {
    const byte = bytes[i]!;
    const separator = byte === E2 && bytes[i + 1] === 0x80 && (bytes[i + 2] === 0xa8 || bytes[i + 2] === 0xa9);
    if (byte !== LT && byte !== GT && byte !== AMP && !separator) continue;
    parts.push(bytes.subarray(from, i), ESCAPED[separator ? bytes[i + 2]! : byte]!);
    if (separator) i += 2;
    from = i + 1;
  }
  parts.push(bytes.subarray(from));
  return Buffer.concat(parts);
}

/** How many bytes at the end of `bytes` begin a UTF-8 character not whole yet (0 to 3). */
function incompleteTail(bytes: Buffer): number {
  for (let back = 1; back <= Math.min(3, bytes.length); back++) {
    const byte = bytes[bytes.length - back]!;
    if ((byte & 0xc0) === 0x80) continue; // a continuation byte: look further back
    const length = byte >= 0xf0 ? 4 : byte >= 0xe0 ? 3 : byte >= 0xc0 ? 2 : 1;
    return length > back ? back : 0;
  }
  return 0;
}

/**
 * Lines that each end in "\n" (in chunks cut anywhere, even inside a character), joined by "\n"
 * with none after the last (Sure's lines.join("\n")), Rails-escaped. Holds back only a cut
 * character and a final newline until the next chunk says whether more comes.
 */
export async function* joinedRailsLines(chunks: AsyncIterable<string | Buffer>): AsyncGenerator<Buffer> {
  let held = Buffer.alloc(0);
  let newlineHeld = false;
  for await (const chunk of chunks) {
    const next = typeof chunk === "string" ? Buffer.from(chunk) : chunk;
    let bytes = held.length > 0 ? Buffer.concat([held, next]) : next;
    const cut = incompleteTail(bytes);
    held = Buffer.from(bytes.subarray(bytes.length - cut));
    bytes = bytes.subarray(0, bytes.length - cut);
    if (bytes.length === 0) continue;
    const out = railsEscapeBytes(bytes);
    // Chunks end at a line's end nearly always: the held newline goes out on its own, not copied in front of the next chunk.
    if (newlineHeld) yield Buffer.from("\n");
    newlineHeld = out[out.length - 1] === NEWLINE;
    const body = newlineHeld ? out.subarray(0, out.length - 1) : out;
    if (body.length > 0) yield body;
  }
  if (held.length > 0) yield railsEscapeBytes(held);
}
