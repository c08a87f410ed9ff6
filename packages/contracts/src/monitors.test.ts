import { describe, expect, it } from "vitest";
import { monitorToTask } from "./monitor-task.js";
import {
  canonicalMonitorFilterJson,
  createTaskSchemas,
  defaultRecords,
  fromServerAlertThreshold,
  MONITOR_MESSAGES,
  nextMonitorName,
  recordsRange,
  type TStoredMonitorFilter,
  toServerAlertThreshold,
  trainingSplitLowerBound,
} from "./monitors.js";

const filter = (over: Partial<TStoredMonitorFilter> = {}): TStoredMonitorFilter => ({
  signal_uuids: ["b", "a"],
  signal_group_uuids: [],
  part_attributes: [
    { attribute_uuid: "z", selected_attribute_values: ["2", "1"] },
    { attribute_uuid: "y", selected_attribute_values: ["x"] },
  ],
  sample_size: 150,
  pass_fail_filter: ["fail", "pass"],
  evaluation_ratio: 0.2,
  part_numbers: ["M2", "M1"],
  part_groups: [],
  ...over,
});

describe("monitor contracts", () => {
  it("maps alert thresholds both ways", () => {
    for (const t of ["low", "medium", "high"] as const)
      expect(fromServerAlertThreshold(toServerAlertThreshold(t))).toBe(t);
    expect(toServerAlertThreshold("medium")).toBe("MEDIUM");
  });

  it("computes the records range and the training split lower bound (requirements.md monitor-forms §9)", () => {
    expect(recordsRange()).toEqual({ min: 50, max: 10_000 });
    expect(recordsRange(20)).toEqual({ min: 50, max: 50 });
    expect(defaultRecords()).toBe(150);
    expect(defaultRecords(100)).toBe(100);
    expect(trainingSplitLowerBound()).toBe(0.01); // 25 / 3000 = 0.0083, clamped
    expect(trainingSplitLowerBound(150)).toBe(0.1667);
    expect(trainingSplitLowerBound(30)).toBe(0.5);
  });

  it("canonicalises the filter: order of ids and keys does not matter, the type does", () => {
    const x = canonicalMonitorFilterJson("mvd", filter());
    const y = canonicalMonitorFilterJson(
      "mvd",
      filter({
        signal_uuids: ["a", "b"],
        part_numbers: ["M1", "M2"],
        pass_fail_filter: ["pass", "fail"],
        part_attributes: [
          { attribute_uuid: "y", selected_attribute_values: ["x"] },
          { attribute_uuid: "z", selected_attribute_values: ["1", "2"] },
        ],
      }),
    );
    expect(x).toBe(y);
    expect(canonicalMonitorFilterJson("svd", filter())).not.toBe(x);
    expect(canonicalMonitorFilterJson("mvd", filter({ sample_size: 151 }))).not.toBe(x);
  });

  it("finds the smallest free default name", () => {
    expect(nextMonitorName("L1", "mvd", [])).toBe("L1 MVD Monitor 1");
    expect(nextMonitorName("L1", "svd", ["L1 SVD Monitor 1", "L1 SVD Monitor 3"])).toBe("L1 SVD Monitor 2");
  });

  it("a monitor maps to a task that the schema accepts", () => {
    const id = "6f1c2a8e-0d0b-4a55-9e58-1c1f7f2b8d11";
    const task = monitorToTask({
      monitor_uuid: id,
      monitor_name: "Name",
      monitor_type: "svd",
      active: true,
      frequency: 5,
      notes: "",
      use_excluded_part_ids: false,
      use_excluded_model_numbers: false,
      monitor_filter: {
        cust_uuid: id,
        plant_uuid: id,
        line_uuid: id,
        signal_uuids: [id],
        signal_group_uuids: [],
        part_groups: [],
        part_numbers: [],
        part_attributes: [{ attributeUuid: id, selectedAttributeValues: ["A"] }],
        pass_fail_filter: [],
        evaluation_ratio: 0.2,
        sample_size: 150,
        alert_threshold: "low",
      },
    });
    const parsed = createTaskSchemas().ZTaskUpdateBody.safeParse(task);
    expect(parsed.success).toBe(true);
    expect(task.task_details.alert_threshold).toBe("LOW");
    expect(task.task_details.part_attributes).toEqual([
      { attribute_uuid: id, selected_attribute_values: ["A"] },
    ]);
  });

  it("the records maximum follows MVD_QUERY_MAX_RECORD_COUNT", () => {
    const { ZTaskDetails } = createTaskSchemas(500);
    const r = ZTaskDetails.shape.sample_size.safeParse(501);
    expect(r.success).toBe(false);
    expect(r.error?.issues[0]?.message).toBe(MONITOR_MESSAGES.sampleSizeMax(500));
  });
});

describe("cap run rules (issue #14)", () => {
  it("are stored sorted and once, and read as the evaluation's switches", async () => {
    const { ZTaskDetails, storedFilterOf, runRulesOf } = await import("./monitors.js");
    const d = ZTaskDetails.parse({
      cust_uuid: "00000000-0000-4000-8000-000000000001",
      plant_uuid: "00000000-0000-4000-8000-000000000002",
      line_uuid: "00000000-0000-4000-8000-000000000003",
      signal_uuids: ["00000000-0000-4000-8000-000000000004"],
      evaluation_ratio: 0.2,
      sample_size: 150,
      run_rules: [4, 2, 4],
    });
    const stored = storedFilterOf(d);
    expect(stored.run_rules).toEqual([2, 4]);
    expect(runRulesOf(stored)).toEqual({ rule2: true, rule3: false, rule4: true });
    expect(runRulesOf({})).toEqual({ rule2: false, rule3: false, rule4: false });
    expect(ZTaskDetails.safeParse({ ...d, run_rules: [1] }).success).toBe(false);
  });
});

describe("cap challenge ranges (requirements.md monitor-forms §2)", () => {
  it("are cap only, a time range runs forward, a part range names two parts", async () => {
    const { ZTaskCreateBody, CHALLENGE_RANGE_TEXTS } = await import("./monitors.js");
    const body = (type: "cap" | "svd", challenge_ranges: unknown) => ({
      task_name: "Torque cap",
      task_type: type,
      active: true,
      frequency: 15,
      task_details: {
        cust_uuid: "00000000-0000-4000-8000-000000000001",
        plant_uuid: "00000000-0000-4000-8000-000000000002",
        line_uuid: "00000000-0000-4000-8000-000000000003",
        signal_uuids: ["00000000-0000-4000-8000-000000000004"],
        evaluation_ratio: 0.2,
        sample_size: 150,
        challenge_ranges,
      },
    });
    const time = { mode: "TIME", from: "2026-11-20T08:00:00Z", to: "2026-11-20T09:00:00Z" };
    const part = { mode: "PART", from_part_id: "P-1", to_part_id: "P-9" };
    expect(ZTaskCreateBody.safeParse(body("cap", [time, part])).success).toBe(true);
    const svd = ZTaskCreateBody.safeParse(body("svd", [time]));
    expect(svd.error?.issues[0]?.message).toBe(CHALLENGE_RANGE_TEXTS.capOnly);
    const backwards = ZTaskCreateBody.safeParse(body("cap", [{ ...time, from: time.to, to: time.from }]));
    expect(backwards.error?.issues[0]?.message).toBe(CHALLENGE_RANGE_TEXTS.timeOrder);
    expect(ZTaskCreateBody.safeParse(body("cap", [{ ...part, to_part_id: " " }])).success).toBe(false);
  });
});
