// monitorToTask apart from monitors.ts's schemas: the Cap Alerts page sends monitors with it and
// loads without zod (issue #17). Its types come from monitors.ts, its helpers from monitor-texts.ts.
import { round4, toServerAlertThreshold } from "./monitor-texts.js";
import type { TMonitor, TTaskCreateBody, TTaskUpdateBody } from "./monitors.js";

/** A monitor as the form sends it to the server (create without uuid, update with it). */
export function monitorToTask(
  m: Omit<TMonitor, "monitor_uuid"> & { monitor_uuid?: string },
): TTaskUpdateBody | TTaskCreateBody {
  const f = m.monitor_filter;
  const body: TTaskCreateBody = {
    task_name: m.monitor_name,
    task_type: m.monitor_type,
    active: m.active,
    frequency: m.frequency,
    notes: m.notes,
    task_details: {
      cust_uuid: f.cust_uuid,
      plant_uuid: f.plant_uuid,
      line_uuid: f.line_uuid,
      use_excluded_part_ids: m.use_excluded_part_ids,
      use_excluded_model_numbers: m.use_excluded_model_numbers,
      alert_threshold: toServerAlertThreshold(f.alert_threshold),
      part_attributes: f.part_attributes.map((a) => ({
        attribute_uuid: a.attributeUuid,
        selected_attribute_values: a.selectedAttributeValues,
      })),
      part_groups: f.part_groups,
      part_numbers: f.part_numbers,
      pass_fail_filter: f.pass_fail_filter,
      signal_group_uuids: f.signal_group_uuids,
      signal_uuids: f.signal_uuids,
      evaluation_ratio: round4(f.evaluation_ratio),
      sample_size: f.sample_size,
      ...(f.op_count ? { op_count: f.op_count } : {}),
      ...(f.run_rules?.length ? { run_rules: f.run_rules } : {}),
      ...(f.challenge_ranges?.length ? { challenge_ranges: f.challenge_ranges } : {}),
    },
  };
  return m.monitor_uuid ? { ...body, task_uuid: m.monitor_uuid } : body;
}
