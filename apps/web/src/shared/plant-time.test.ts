import { describe, expect, it } from "vitest";
import { fromPlantInput, toPlantInput } from "./plant-time";

describe("plant time inputs", () => {
  it("reads an input's wall clock in the plant's time zone, whatever the browser's", () => {
    expect(fromPlantInput("2026-11-22T08:00", "America/Detroit")).toBe("2026-11-22T13:00:00.000Z");
    expect(fromPlantInput("2026-07-01T08:00", "America/Detroit")).toBe("2026-07-01T12:00:00.000Z");
    expect(fromPlantInput("2026-11-22T08:00", "Europe/Berlin")).toBe("2026-11-22T07:00:00.000Z");
  });
  it("shows an instant on the plant's wall clock", () => {
    expect(toPlantInput(new Date("2026-11-22T13:00:00Z"), "America/Detroit")).toBe("2026-11-22T08:00");
    expect(toPlantInput(Date.parse("2026-11-22T07:00:00Z"), "Europe/Berlin")).toBe("2026-11-22T08:00");
  });
  it("answers null for a text that is no date-time", () => {
    expect(fromPlantInput("", "UTC")).toBeNull();
    expect(fromPlantInput("yesterday", "UTC")).toBeNull();
  });
});
