import { describe, expect, it } from "vitest";
import {
  clampEvaluationRatio,
  correctMonitorQuery,
  defaultMonitorQuery,
  isMonitorCompatible,
  monitorQueryErrors,
  parseSplitPercentage,
  previewPeriodOf,
  QUERY_MESSAGES,
  recordCountOf,
  splitPercentages,
  type TMonitorQuery,
  trainingSplitBounds,
  ZPreviewFilter,
} from "./monitor-query.js";
import { ZStoredMonitorFilter } from "./monitors.js";

const NOW = Date.parse("2026-11-22T12:00:00Z");
const H = 3_600_000;
const opts = { now: NOW, maxRecordCount: 10_000 };

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

describe("query correction (requirements.md monitor-forms §4)", () => {
  it("defaults to the newest 150 records up to now, which a monitor can use", () => {
    const q = defaultMonitorQuery(NOW);
    expect(q).toMatchObject({ start_mode: "Records", start_records: 150, end_mode: "Time", end_time: NOW });
    expect(isMonitorCompatible(q)).toBe(true);
  });

  it("gives a side changed to Duration one hour, and derives its time from the other end", () => {
    const prev = timeToTime(NOW - 5 * H, NOW - H);
    const q = correctMonitorQuery(prev, { ...prev, start_mode: "Duration" }, opts);
    expect(q.start_duration).toBe(H);
    expect(q.start_time).toBe(NOW - 2 * H);
    expect(isMonitorCompatible(q)).toBe(false);
  });

  it("gives a side changed to Records 150, capped by MVD_QUERY_MAX_RECORD_COUNT", () => {
    const prev = timeToTime(NOW - 5 * H, NOW - H);
    expect(correctMonitorQuery(prev, { ...prev, start_mode: "Records" }, opts).start_records).toBe(150);
    expect(
      correctMonitorQuery(prev, { ...prev, start_mode: "Records" }, { now: NOW, maxRecordCount: 100 })
        .start_records,
    ).toBe(100);
  });

  it("limits the other side to Time when one side counts records or a duration", () => {
    const prev: TMonitorQuery = { ...defaultMonitorQuery(NOW) }; // Records → Time
    const q = correctMonitorQuery(prev, { ...prev, end_mode: "Duration" }, opts);
    expect(q.end_mode).toBe("Duration");
    expect(q.start_mode).toBe("Time");
    expect(q.end_duration).toBe(H);
    expect(q.start_records).toBeNull();
  });

  it("derives a time changed to Time from the other end minus the default duration, or from now", () => {
    const prev = defaultMonitorQuery(NOW);
    const q = correctMonitorQuery(prev, { ...prev, start_mode: "Time" }, opts);
    expect(q.start_time).toBe(NOW - H);
    const endDuration: TMonitorQuery = {
      ...timeToTime(NOW - 3 * H, NOW),
      end_mode: "Duration",
      end_duration: H,
    };
    expect(correctMonitorQuery(endDuration, { ...endDuration, end_mode: "Time" }, opts).end_time).toBe(
      NOW - 2 * H,
    );
    const noStart: TMonitorQuery = {
      ...timeToTime(Number.NaN, NOW),
      start_time: null,
      end_mode: "Records",
      end_records: 150,
    };
    expect(correctMonitorQuery(noStart, { ...noStart, end_mode: "Time" }, opts).end_time).toBe(NOW);
  });

  it("clamps records into 50 – max and durations into 1 min – 50 h", () => {
    const prev = defaultMonitorQuery(NOW);
    expect(correctMonitorQuery(prev, { ...prev, start_records: 3 }, opts).start_records).toBe(50);
    expect(correctMonitorQuery(prev, { ...prev, start_records: 99_999 }, opts).start_records).toBe(10_000);
    const d: TMonitorQuery = { ...timeToTime(NOW - H, NOW), start_mode: "Duration", start_duration: H };
    expect(correctMonitorQuery(d, { ...d, start_duration: 1000 }, opts).start_duration).toBe(60_000);
    expect(correctMonitorQuery(d, { ...d, start_duration: 10 ** 12 }, opts).start_duration).toBe(180_000_000);
  });

  it("never lets a time lie in the future", () => {
    const prev = timeToTime(NOW - H, NOW);
    expect(correctMonitorQuery(prev, { ...prev, end_time: NOW + 5 * H }, opts).end_time).toBe(NOW);
  });
});

describe("query validation (requirements.md monitor-forms §5)", () => {
  it("reports invalid times and a start not before the end", () => {
    expect(monitorQueryErrors({ ...timeToTime(Number.NaN, NOW) }, opts).start_time).toBe(
      QUERY_MESSAGES.invalidStart,
    );
    expect(monitorQueryErrors({ ...timeToTime(NOW - H, Number.NaN) }, opts).end_time).toBe(
      QUERY_MESSAGES.invalidEnd,
    );
    expect(monitorQueryErrors(timeToTime(NOW - 500, NOW), opts).start_time).toBe(
      QUERY_MESSAGES.startAfterEnd,
    );
    expect(monitorQueryErrors(timeToTime(NOW - H, NOW), opts)).toEqual({});
  });

  it("reads the period the preview asks for from the modes", () => {
    expect(previewPeriodOf(defaultMonitorQuery(NOW))).toEqual({
      from: null,
      to: new Date(NOW).toISOString(),
      records: 150,
      anchor: "end",
    });
    expect(previewPeriodOf(timeToTime(NOW - H, NOW))).toMatchObject({ records: null, anchor: "end" });
  });
});

describe("training split (requirements.md monitor-forms §5, §9)", () => {
  it("bounds the evaluation ratio by 25 / records (4 places) and 0.5", () => {
    expect(trainingSplitBounds(150)).toEqual({ min: 0.1667, max: 0.5 });
    expect(trainingSplitBounds(3000)).toEqual({ min: 0.01, max: 0.5 });
    expect(recordCountOf(timeToTime(NOW - H, NOW))).toBe(3000);
    expect(clampEvaluationRatio(0.05, 150)).toBe(0.1667);
    expect(clampEvaluationRatio(0.9, 150)).toBe(0.5);
  });

  it("shows sample = 100 − evaluation, and refuses non-numeric input", () => {
    expect(splitPercentages(0.2)).toEqual({ evaluation: 20, sample: 80 });
    expect(splitPercentages(0.1667)).toEqual({ evaluation: 16.67, sample: 83.33 });
    expect(parseSplitPercentage("25")).toBe(0.25);
    expect(parseSplitPercentage("2x")).toBeNull();
    expect(parseSplitPercentage("")).toBeNull();
  });
});

describe("the preview's filter", () => {
  const filter = {
    signal_uuids: ["0b6f3a3e-3f0e-4f5e-9a59-1f4a2f8e7c11"],
    sample_size: 40,
    evaluation_ratio: 0.5,
  };
  it("has the stored filter's fields, validated as a task's details are", () => {
    expect(Object.keys(ZPreviewFilter.shape).sort()).toEqual(Object.keys(ZStoredMonitorFilter.shape).sort());
    expect(ZPreviewFilter.safeParse({ ...filter, signal_uuids: ["not-an-id"] }).success).toBe(false);
    expect(ZPreviewFilter.safeParse({ ...filter, part_numbers: ["  "] }).success).toBe(false);
    expect(ZPreviewFilter.safeParse({ ...filter, cust_uuid: filter.signal_uuids[0] }).success).toBe(false);
  });
  it("previews a form still being filled in: any whole sample size from 1 and any ratio in [0, 1]", () => {
    expect(ZPreviewFilter.parse(filter)).toMatchObject({ ...filter, part_numbers: [], pass_fail_filter: [] });
    expect(ZPreviewFilter.safeParse({ ...filter, sample_size: 1, evaluation_ratio: 0 }).success).toBe(true);
    expect(ZPreviewFilter.safeParse({ ...filter, sample_size: 0 }).success).toBe(false);
    expect(ZPreviewFilter.safeParse({ ...filter, evaluation_ratio: 1.5 }).success).toBe(false);
  });
});
