// The family export's formula-injection guard for CSV text cells (OWASP's CSV injection rule).
import { describe, expect, it } from "vitest";
import { csvRow, csvText } from "../src/family-exports/csv-cell";

describe("csvText", () => {
  it("prepends ' to text starting with = + - @ TAB or CR", () => {
    expect(csvText('=HYPERLINK("http://evil","x")')).toBe(`'=HYPERLINK("http://evil","x")`);
    expect(csvText("@SUM(1+1)*cmd|' /C calc'!A0")).toBe(`'@SUM(1+1)*cmd|' /C calc'!A0`);
    expect(csvText("+1")).toBe("'+1");
    expect(csvText("-Refunds")).toBe("'-Refunds");
    expect(csvText("\tx")).toBe("'\tx");
    expect(csvText("\rx")).toBe("'\rx");
  });

  it("leaves every other text, empty text and nil as they are", () => {
    for (const text of ["Coffee", "", " =x", "x=1", "'=x", "#ff0000", "2026-03-05", "Zürich", "😀"]) expect(csvText(text)).toBe(text);
    expect(csvText(null)).toBeNull();
    expect(csvText(undefined)).toBeUndefined();
  });

  it("is quoted by csvRow afterwards as any cell is; numbers written beside it stay numbers", () => {
    expect(csvRow([csvText('=HYPERLINK("x")'), -12.5, "-12.5", csvText("@cmd"), csvText("Plain"), csvText(null)])).toBe(
      `"'=HYPERLINK(""x"")",-12.5,-12.5,'@cmd,Plain,\n`,
    );
  });
});
