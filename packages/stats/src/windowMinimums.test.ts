import { describe, expect, it } from "vitest";
import { MIN_EVALUATION_RECORDS, MIN_SVD_TRAINING_RECORDS, minMvdTrainingRecords } from "./windowMinimums.js";

describe("window minimums (docs/monitoring.md 'The window')", () => {
  it("are 25 evaluation records, 10 SVD training records and 2p + 2 MVD training records", () => {
    expect(MIN_EVALUATION_RECORDS).toBe(25);
    expect(MIN_SVD_TRAINING_RECORDS).toBe(10);
    expect(minMvdTrainingRecords(3)).toBe(8);
    expect(minMvdTrainingRecords(20)).toBe(42);
  });
});
