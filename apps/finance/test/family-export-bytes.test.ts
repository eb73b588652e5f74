// The export's byte-level pieces: all.ndjson's Rails escaping and line joining done on the COPY
// stream's chunks (cut anywhere, even inside a character), and the literals COPY queries carry.
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { Prisma } from "../src/generated/prisma/client";
import { inlineSql } from "../src/family-exports/copy-source";
import { joinedRailsLines, railsEscapeBytes } from "../src/family-exports/joined-lines";
import { railsEscape } from "../src/family-exports/sure-values";

/** `bytes` cut at the given offsets. */
function cut(bytes: Buffer, offsets: number[]): Buffer[] {
  const at = [...new Set(offsets.map((offset) => offset % (bytes.length + 1)))].sort((a, b) => a - b);
  const pieces: Buffer[] = [];
  let from = 0;
  for (const offset of [...at, bytes.length]) {
    pieces.push(bytes.subarray(from, offset));
    from = offset;
  }
  return pieces;
}

async function joined(chunks: (string | Buffer)[]): Promise<string> {
  async function* source() {
    yield* chunks;
  }
  const out: Buffer[] = [];
  for await (const chunk of joinedRailsLines(source())) out.push(chunk);
  return Buffer.concat(out).toString("utf8");
}

/** Characters that matter here: the escaped ones, others sharing U+2028's lead byte (–, €), four-byte ones, and plain text. */
const text = fc.stringOf(fc.constantFrom("a", "Z", " ", '"', "\\", "<", ">", "&", "\u2028", "\u2029", "–", "€", "é", "😀", "{"), { maxLength: 30 });

describe("all.ndjson as bytes", () => {
  it("escapes <, >, &, U+2028 and U+2029 as Rails does, leaving every other character (– and €, which share U+2028's first byte) as it is", () => {
    expect(railsEscapeBytes(Buffer.from('{"n":"A&B <x> –€ \u2028\u2029"}')).toString()).toBe('{"n":"A\\u0026B \\u003cx\\u003e –€ \\u2028\\u2029"}');
    const plain = Buffer.from('{"n":"plain"}');
    expect(railsEscapeBytes(plain)).toBe(plain); // nothing to escape: the same buffer, not a copy
  });

  it("joins lines ended by newlines with none after the last, however the chunks are cut (property)", async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(text, { minLength: 1, maxLength: 8 }), fc.array(fc.nat(), { maxLength: 12 }), async (lines, offsets) => {
        const bytes = Buffer.from(lines.map((line) => `${line}\n`).join(""));
        expect(await joined(cut(bytes, offsets))).toBe(railsEscape(lines.join("\n")));
      }),
      { numRuns: 300 },
    );
  });

  it("takes the rules' lines as strings between the database's chunks", async () => {
    expect(await joined([Buffer.from('{"a":1}\n{"b":"<"}\n'), '{"type":"Rule"}\n', Buffer.from('{"c":"\u2028"}\n')])).toBe(
      '{"a":1}\n{"b":"\\u003c"}\n{"type":"Rule"}\n{"c":"\\u2028"}',
    );
    expect(await joined([])).toBe("");
  });
});

describe("COPY queries' literals", () => {
  const quote = (value: string) => `'${value.replaceAll("'", "''")}'`;

  it("writes each value in as a literal, strings quoted by the connection's escaper", () => {
    const family = "0f0e0d0c-0000-4000-8000-000000000001";
    const query = Prisma.sql`SELECT ${"it's"} AS a, ${42} AS b, ${true} AS c, ${null} AS d FROM t WHERE f = ${family}::uuid`;
    expect(inlineSql(query, quote)).toBe(`SELECT 'it''s' AS a, (42) AS b, TRUE AS c, NULL AS d FROM t WHERE f = '${family}'::uuid`);
    // A negative number after a minus sign stays an expression, not the start of a comment.
    expect(inlineSql(Prisma.sql`SELECT 1-${-5}`, quote)).toBe("SELECT 1-(-5)");
  });

  it("refuses a value it cannot write as a literal, rather than guessing", () => {
    expect(() => inlineSql(Prisma.sql`SELECT ${Number.NaN}`, quote)).toThrow(TypeError);
    expect(() => inlineSql(Prisma.sql`SELECT ${new Date(0)}`, quote)).toThrow(TypeError);
  });
});
