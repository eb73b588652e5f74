import { describe, expect, it } from "vitest";
import { CsvSyntaxError, parseCsv } from "../src/http/csv-text";

// The CSV reading of Sure's imports (Ruby CSV, headers: true, liberal_parsing, cells stripped).
describe("parseCsv", () => {
  it("reads headers and rows, trimming cells and the text, with any line ending", () => {
    expect(parseCsv("name,color\n Shop , #ff0000 \r\nBakery,\rCafe")).toEqual({
      headers: ["name", "color"],
      rows: [["Shop", "#ff0000"], ["Bakery", ""], ["Cafe"]],
    });
    expect(parseCsv("\n\nname\nA\n\n")).toEqual({ headers: ["name"], rows: [["A"]] });
  });

  it("reads quoted cells with commas, line breaks and doubled quotes", () => {
    expect(parseCsv('name,notes\n"Smith, Jones","said ""hi""\nthen left"\n""," "')).toEqual({
      headers: ["name", "notes"],
      rows: [
        ["Smith, Jones", 'said "hi"\nthen left'],
        ["", ""],
      ],
    });
  });

  it("leaves out blank lines and takes a quote inside an unquoted cell as a character", () => {
    expect(parseCsv('name\nA\n\n\nB"s shop')).toEqual({ headers: ["name"], rows: [["A"], ['B"s shop']] });
  });

  it("drops a byte order mark", () => {
    expect(parseCsv("\uFEFFname\nA")).toEqual({ headers: ["name"], rows: [["A"]] });
  });

  it("answers an empty table for empty or blank text", () => {
    expect(parseCsv("")).toEqual({ headers: [], rows: [] });
    expect(parseCsv(" \n\r\n ")).toEqual({ headers: [], rows: [] });
  });

  it.each([
    ['name\n"Unclosed', "Quote Not Closed: the parsing is finished with an opening quote at line 2"],
    ['name\n"a"b', "Invalid Closing Quote: found non trimable byte after quote at line 2"],
    ['name,x\n"multi\nline"z', "Invalid Closing Quote: found non trimable byte after quote at line 3"],
  ])("refuses %j naming the line", (text, message) => {
    expect(() => parseCsv(text)).toThrow(CsvSyntaxError);
    expect(() => parseCsv(text)).toThrow(message);
  });
});
