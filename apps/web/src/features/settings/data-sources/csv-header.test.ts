import { describe, expect, it } from "vitest";
import { firstCsvRecord } from "./csv-header";

describe("firstCsvRecord", () => {
  it("splits the first line on commas and trims the cells", () => {
    expect(firstCsvRecord("line, station ,partId\r\nL,S,P\n")).toEqual(["line", "station", "partId"]);
  });
  it("keeps commas, doubled quotes and line breaks inside quoted cells", () => {
    expect(firstCsvRecord('"a,b","say ""hi""","two\nlines",d\nx')).toEqual([
      "a,b",
      'say "hi"',
      "two\nlines",
      "d",
    ]);
  });
  it("skips blank lines before the header and reads a file without a final line break", () => {
    expect(firstCsvRecord("\n\r\npartId,timestamp")).toEqual(["partId", "timestamp"]);
  });
  it("answers one empty cell for an empty file", () => {
    expect(firstCsvRecord("")).toEqual([""]);
  });
});
