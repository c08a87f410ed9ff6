import { describe, expect, it } from "vitest";
import { CSV_MESSAGES, mapCsvHeader } from "./part-records.js";

describe("mapCsvHeader", () => {
  it("maps fixed columns (any letter case), prefixed signals and plain measurements", () => {
    expect(
      mapCsvHeader([
        "\uFEFFLine",
        " station ",
        "PARTID",
        "modelNumber",
        "timestamp",
        "op",
        "Torque",
        "Result:Final",
        "attr:Shift",
        "lower:Torque",
        "UPPER:Torque",
        "Temp:Zone 1",
      ]),
    ).toEqual({
      columns: [
        { kind: "fixed", field: "line" },
        { kind: "fixed", field: "station" },
        { kind: "fixed", field: "partId" },
        { kind: "fixed", field: "modelNumber" },
        { kind: "fixed", field: "timestamp" },
        { kind: "fixed", field: "op" },
        { kind: "measurement", name: "Torque" },
        { kind: "result", name: "Final" },
        { kind: "attribute", name: "Shift" },
        { kind: "lower", name: "Torque" },
        { kind: "upper", name: "Torque" },
        // An unknown prefix is part of a measurement's name.
        { kind: "measurement", name: "Temp:Zone 1" },
      ],
    });
  });

  it("needs partId and timestamp, and line and station unless a default is chosen", () => {
    expect(mapCsvHeader(["line", "station", "timestamp"])).toEqual({
      error: CSV_MESSAGES.missingColumn("partId"),
    });
    expect(mapCsvHeader(["line", "station", "partId"])).toEqual({
      error: CSV_MESSAGES.missingColumn("timestamp"),
    });
    expect(mapCsvHeader(["partId", "timestamp"])).toEqual({ error: CSV_MESSAGES.missingLine });
    expect(mapCsvHeader(["partId", "timestamp"], { line: "L" })).toEqual({
      error: CSV_MESSAGES.missingStation,
    });
    expect(mapCsvHeader(["partId", "timestamp"], { line: "L", station: " " })).toEqual({
      error: CSV_MESSAGES.missingStation,
    });
    expect("columns" in mapCsvHeader(["partId", "timestamp"], { line: "L", station: "S" })).toBe(true);
  });

  it("refuses empty, repeated and unnamed columns and semicolon files", () => {
    expect(mapCsvHeader([""])).toEqual({ error: CSV_MESSAGES.empty });
    expect(mapCsvHeader(["partId", "", "timestamp"])).toEqual({ error: CSV_MESSAGES.unnamedColumn(2) });
    expect(Object.hasOwn(mapCsvHeader(["partId", "timestamp", "line", "station", "A", "a"]), "columns")).toBe(
      true,
    );
    expect(mapCsvHeader(["partId", "timestamp", "Line", "line"])).toEqual({
      error: CSV_MESSAGES.duplicateColumn("line"),
    });
    expect(mapCsvHeader(["partId", "timestamp", "attr: "])).toEqual({
      error: CSV_MESSAGES.unnamedSignal("attr:"),
    });
    expect(mapCsvHeader(["partId;timestamp"])).toEqual({ error: CSV_MESSAGES.notCommaSeparated });
  });
});
