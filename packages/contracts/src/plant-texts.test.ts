import { describe, expect, it } from "vitest";
import {
  canonicalTimeZone,
  PLANT_MESSAGES,
  PLANT_NAME_MAX,
  plantNameError,
  timeZoneError,
  timeZoneOptions,
} from "./plant-texts.js";
import { ZCreatePlantBody, ZUpdatePlantBody } from "./plants.js";

describe("plant time zones: IANA names the runtime knows", () => {
  it("accepts IANA names in any letter case and answers their canonical spelling", () => {
    expect(canonicalTimeZone("Europe/Berlin")).toBe("Europe/Berlin");
    expect(canonicalTimeZone(" america/chicago ")).toBe("America/Chicago");
    expect(canonicalTimeZone("UTC")).toBe("UTC");
  });

  it("refuses unknown zones, offsets and empty text", () => {
    for (const tz of ["Mars/Olympus", "Europe/Atlantis", "+01:00", "-0500", "UTC+1", "GMT-3", "", "  "])
      expect(canonicalTimeZone(tz), tz).toBeNull();
    expect(timeZoneError("")).toBe(PLANT_MESSAGES.timeZoneRequired);
    expect(timeZoneError("Mars/Olympus")).toBe(PLANT_MESSAGES.timeZoneInvalid);
    expect(timeZoneError("Asia/Tokyo")).toBeNull();
  });

  it("offers the runtime's zones, sorted, UTC among them, each one the schema accepts", () => {
    const zones = timeZoneOptions();
    expect(zones).toContain("UTC");
    expect(zones).toContain("Europe/Berlin");
    expect([...zones].sort()).toEqual(zones);
    for (const tz of zones) expect(canonicalTimeZone(tz), tz).not.toBeNull();
  });
});

describe("plant bodies", () => {
  it("trims and bounds the name", () => {
    expect(plantNameError("  ")).toBe(PLANT_MESSAGES.nameRequired);
    expect(plantNameError("x".repeat(PLANT_NAME_MAX + 1))).toBe(PLANT_MESSAGES.nameTooLong);
    expect(plantNameError(` ${"x".repeat(PLANT_NAME_MAX)} `)).toBeNull();
    expect(ZCreatePlantBody.parse({ name: "  Plant 1 ", timeZone: "europe/berlin" })).toEqual({
      name: "Plant 1",
      timeZone: "Europe/Berlin",
    });
  });

  it("needs something to change and takes no unknown field", () => {
    expect(ZUpdatePlantBody.safeParse({}).success).toBe(false);
    expect(ZUpdatePlantBody.safeParse({ active: false }).success).toBe(true);
    expect(ZUpdatePlantBody.safeParse({ name: "A", customerId: "x" }).success).toBe(false);
  });
});
