import { MONITOR_MESSAGES } from "@linewatch/contracts";
import { describe, expect, it } from "vitest";
import { combineSaveOutcome, partMessage } from "./save-outcome";

describe("combineSaveOutcome", () => {
  it("joins both success messages with ' , ' into one snackbar", () => {
    const o = combineSaveOutcome([
      { part: "monitor", ok: true, message: partMessage("monitor", true, false) },
      { part: "rules", ok: true, message: partMessage("rules", true, false) },
    ]);
    expect(o).toEqual({ kind: "success", snackbar: "Monitor saved , Alert rules saved" });
  });

  it("lists each result when one part fails, under the two-part error title", () => {
    const parts = [
      { part: "monitor" as const, ok: true, message: partMessage("monitor", true, true) },
      { part: "rules" as const, ok: false, message: partMessage("rules", false, true) },
    ];
    const o = combineSaveOutcome(parts);
    expect(o).toEqual({ kind: "partial", title: MONITOR_MESSAGES.errorSavingBoth, results: parts });
    expect(parts.map((p) => p.message)).toEqual(["Monitor created", "Error saving alert rules"]);
  });

  it("words a failed edit and a failed create differently", () => {
    expect(partMessage("monitor", false, false)).toBe("Error saving monitor");
    expect(partMessage("monitor", false, true)).toBe("Error creating monitor");
  });
});
