/**
 * The monitor filter as stored in monitors.filter (jsonb), read with our own schema so the worker
 * does not depend on the monitors API module. Unknown keys (cust_uuid, plant_uuid, line_uuid,
 * alert_threshold…) are ignored; missing lists default to empty.
 */
import { z } from "zod";

export const ZMonitorFilter = z.object({
  signal_uuids: z.array(z.string().uuid()).default([]),
  signal_group_uuids: z.array(z.string().uuid()).default([]),
  part_attributes: z
    .array(
      z.object({
        attribute_uuid: z.string().uuid(),
        selected_attribute_values: z.array(z.string()).default([]),
      }),
    )
    .default([]),
  sample_size: z.number().int().min(0).max(1_000_000).default(0),
  pass_fail_filter: z.array(z.enum(["pass", "fail"])).default([]),
  /** A fraction (0.2); values above 1 are read as a percentage (20 → 0.2). */
  evaluation_ratio: z.number().min(0).max(100).default(0),
  part_numbers: z.array(z.string()).default([]),
  /** No part-group table exists yet: accepted and ignored by the window query. */
  part_groups: z.array(z.string()).default([]),
  op_count: z.enum(["ALL", "FIRST", "LAST"]).optional(),
});

export type MonitorFilter = z.infer<typeof ZMonitorFilter>;

/** Parses a stored filter; throws a readable error when it does not fit. */
export function parseMonitorFilter(raw: unknown): MonitorFilter {
  const r = ZMonitorFilter.safeParse(raw ?? {});
  if (!r.success) {
    const msg = r.error.issues.map((i) => `${i.path.join(".") || "filter"}: ${i.message}`).join("; ");
    throw new Error(`invalid monitor filter: ${msg}`);
  }
  return r.data;
}

/** evaluation_ratio as a fraction. */
export const ratioOf = (f: Pick<MonitorFilter, "evaluation_ratio">) =>
  f.evaluation_ratio > 1 ? f.evaluation_ratio / 100 : f.evaluation_ratio;
