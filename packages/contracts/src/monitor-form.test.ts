import { describe, expect, it } from "vitest";
import {
  clampFrequency,
  formToTask,
  monitorFilterMd5,
  monitorFormErrors,
  monitorToForm,
  newMonitorForm,
  reconcileFilterMd5,
  storedFilterOfForm,
} from "./monitor-form.js";
import { QUERY_MESSAGES, type TMonitorQuery } from "./monitor-query.js";
import { monitorToTask } from "./monitor-task.js";
import { MONITOR_MESSAGES, type TMonitor } from "./monitors.js";

const NOW = Date.parse("2026-11-22T12:00:00Z");
const H = 3_600_000;
const opts = { now: NOW, maxRecordCount: 10_000 };
const LINE = "00000000-0000-4000-8000-000000000010";
const S1 = "00000000-0000-4000-8000-000000000011";
const S2 = "00000000-0000-4000-8000-000000000012";

const timeToTime = (start: number, end: number): TMonitorQuery => ({
  start_mode: "Time",
  end_mode: "Time",
  start_time: start,
  end_time: end,
  start_records: null,
  end_records: null,
  start_duration: null,
  end_duration: null,
});

describe("frequency clamp (requirements.md monitor-forms §4)", () => {
  it("clamps into 5 – 1440 minutes; unreadable becomes the minimum", () => {
    expect(clampFrequency("1")).toBe(5);
    expect(clampFrequency("5000")).toBe(1440);
    expect(clampFrequency("abc")).toBe(5);
    expect(clampFrequency("")).toBe(5);
    expect(clampFrequency("30")).toBe(30);
  });
});

describe("form values", () => {
  const ctx = {
    cust_uuid: "00000000-0000-4000-8000-000000000001",
    plant_uuid: "00000000-0000-4000-8000-000000000002",
  };

  it("validates signal counts per type with the spec's messages", () => {
    const mvd = { ...newMonitorForm("mvd", LINE, opts), monitor_name: "Axle MVD" };
    expect(monitorFormErrors(mvd, opts).map((e) => e.message)).toEqual([MONITOR_MESSAGES.mvdSignals]);
    expect(monitorFormErrors({ ...mvd, signal_uuids: [S1, S2] }, opts)).toEqual([]);
    const svd = { ...newMonitorForm("svd", LINE, opts), monitor_name: "Axle SVD" };
    expect(monitorFormErrors(svd, opts)[0]?.message).toBe(MONITOR_MESSAGES.svdSignalNone);
    expect(monitorFormErrors({ ...svd, signal_uuids: [S1, S2] }, opts)[0]?.message).toBe(
      MONITOR_MESSAGES.svdSignalRequired,
    );
  });

  it("refuses to save a period that is not a rolling window of records", () => {
    const v = { ...newMonitorForm("mvd", LINE, opts), monitor_name: "Axle MVD", signal_uuids: [S1, S2] };
    const errors = monitorFormErrors({ ...v, query: timeToTime(NOW - H, NOW) }, opts);
    expect(errors).toEqual([
      { path: "query.start_mode", tab: "filters", message: QUERY_MESSAGES.incompatibleSave },
    ]);
  });

  /** The client view of an MVD monitor of LINE with these signals and settings (requirements.md monitor-forms §3). */
  const mvdView = (
    v: ReturnType<typeof newMonitorForm>,
    filter: Partial<TMonitor["monitor_filter"]>,
  ): Omit<TMonitor, "monitor_uuid"> => {
    const f = storedFilterOfForm(v);
    return {
      monitor_name: v.monitor_name,
      monitor_type: "mvd",
      active: v.active,
      frequency: v.frequency,
      notes: v.notes,
      use_excluded_part_ids: false,
      use_excluded_model_numbers: false,
      monitor_filter: {
        ...ctx,
        line_uuid: LINE,
        signal_uuids: [],
        signal_group_uuids: [],
        part_groups: [],
        part_numbers: [],
        part_attributes: [],
        pass_fail_filter: [],
        evaluation_ratio: f.evaluation_ratio,
        sample_size: f.sample_size,
        alert_threshold: v.alert_threshold,
        ...filter,
      },
    };
  };

  it("round-trips a monitor through the form and keeps its md5; a changed filter resets name, uuid and md5", () => {
    const v = { ...newMonitorForm("mvd", LINE, opts), monitor_name: "Axle MVD", signal_uuids: [S2, S1] };
    const stored: TMonitor = {
      ...mvdView(v, { signal_uuids: [S1, S2] }),
      monitor_uuid: "00000000-0000-4000-8000-000000000099",
      monitor_filter_md5: monitorFilterMd5("mvd", storedFilterOfForm(v)),
    };
    const back = monitorToForm(stored, [], opts);
    expect(back.query.start_records).toBe(150);
    expect(reconcileFilterMd5(back)).toBe(back);
    const changed = reconcileFilterMd5({ ...back, signal_uuids: [S1] });
    expect(changed).toMatchObject({ monitor_name: "", monitor_uuid: null, monitor_filter_md5: null });
  });

  it("maps the form straight to the task body, the same body the client view would give", () => {
    const v = {
      ...newMonitorForm("mvd", LINE, opts),
      monitor_name: "Axle MVD",
      signal_uuids: [S1, S2],
      part_attributes: [{ attributeUuid: "shift", selectedAttributeValues: ["A"] }],
      alert_threshold: "high" as const,
    };
    const task = formToTask(v, ctx);
    expect(task).toEqual(
      monitorToTask(mvdView(v, { signal_uuids: [S1, S2], part_attributes: v.part_attributes })),
    );
    expect(task.task_details.alert_threshold).toBe("HIGH");
    expect(task.task_details.part_attributes).toEqual([
      { attribute_uuid: "shift", selected_attribute_values: ["A"] },
    ]);
  });

  it("gives the same md5 whatever order the ids come in", () => {
    const v = newMonitorForm("mvd", LINE, opts);
    expect(monitorFilterMd5("mvd", storedFilterOfForm({ ...v, signal_uuids: [S1, S2] }))).toBe(
      monitorFilterMd5("mvd", storedFilterOfForm({ ...v, signal_uuids: [S2, S1] })),
    );
  });
});
