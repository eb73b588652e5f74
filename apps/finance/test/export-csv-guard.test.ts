// The family export's formula-injection guard for CSV text cells (OWASP's CSV injection rule).
import { describe, expect, it } from "vitest";
import { csvRow, csvText } from "../src/family-exports/csv-cell";
import { unguardedText } from "../src/imports/parsing/formula-guard";

describe("csvText", () => {
  it("prepends ' to text starting with = + - @ TAB or CR", () => {
    expect(csvText('=HYPERLINK("http://evil","x")')).toBe(`'=HYPERLINK("http://evil","x")`);
    expect(csvText("@SUM(1+1)*cmd|' /C calc'!A0")).toBe(`'@SUM(1+1)*cmd|' /C calc'!A0`);
    expect(csvText("+1")).toBe("'+1");
    expect(csvText("-Refunds")).toBe("'-Refunds");
    expect(csvText("\tx")).toBe("'\tx");
    expect(csvText("\rx")).toBe("'\rx");
  });

  it("guards a trigger after leading spaces, the full-width triggers, and text starting with the guard's own quote", () => {
    expect(csvText(" =HYPERLINK(1)")).toBe("' =HYPERLINK(1)");
    expect(csvText("\n @x")).toBe("'\n @x");
    expect(csvText("\uFF1D1+1")).toBe("'\uFF1D1+1");
    expect(csvText("\uFF0B1")).toBe("'\uFF0B1");
    expect(csvText("'x")).toBe("''x");
    expect(csvText("'=x")).toBe("''=x");
  });

  it("reads back exactly through the import's unguardedText, whatever the text", () => {
    for (const text of ["=1", " =1", "'x", "'=x", "''", "'", "Plain", "-Refunds", "\uFF20home", "x'", "\tTab"]) {
      expect(unguardedText(csvText(text)!)).toBe(text);
    }
    // A cell the export did not guard keeps its quote.
    expect(unguardedText("'Quoted")).toBe("'Quoted");
  });

  it("leaves every other text, empty text and nil as they are", () => {
    for (const text of ["Coffee", "", "x=1", "#ff0000", "2026-03-05", "Zürich", "😀", "x'"]) expect(csvText(text)).toBe(text);
    expect(csvText(null)).toBeNull();
    expect(csvText(undefined)).toBeUndefined();
  });

  it("is quoted by csvRow afterwards as any cell is; numbers written beside it stay numbers", () => {
    expect(csvRow([csvText('=HYPERLINK("x")'), -12.5, "-12.5", csvText("@cmd"), csvText("Plain"), csvText(null)])).toBe(
      `"'=HYPERLINK(""x"")",-12.5,-12.5,'@cmd,Plain,\n`,
    );
  });
});
