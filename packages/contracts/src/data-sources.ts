import { z } from "zod";
import { ZId } from "./common.js";

/**
 * Whether a string is a valid MQTT topic filter (MQTT 3.1.1 §4.7): '+' fills a whole level,
 * '#' fills the whole last level, no NUL character, and a broker-independent length bound.
 */
export function isMqttTopicFilter(topic: string): boolean {
  if (topic.length === 0 || topic.length > 255 || topic.includes("\u0000")) return false;
  const levels = topic.split("/");
  return levels.every((level, i) => {
    if (level.includes("#")) return level === "#" && i === levels.length - 1;
    if (level.includes("+")) return level === "+";
    return true;
  });
}

export const DATA_SOURCE_MESSAGES = {
  title: "Data Sources",
  empty: "No data sources",
  fetchError: "Fetch Sources Error",
  fetchErrorStatus: (status: number | string) => `Status : ${status}`,
  fetchDatasourcesError: "Error fetching datasources",
  ingestorError: "Error fetching ingestor",
  plantRequired: "Plant ID is required to fetch ingestors.",
  deleteTitle: (name: string) => `Delete Source : ${name}`,
  deleted: "Source was deleted Successfully",
  created: "Data source added",
  nameTaken: "A data source with this name already exists for this plant",
  topicInvalid: "Topic must be a valid MQTT topic filter ('+' and '#' only as whole levels, '#' last)",
  notFound: "Data source not found",
} as const;

/** A data source (spec monitor-forms §3 "Other entities"). */
export const ZDataSource = z.object({
  id: ZId,
  name: z.string(),
  topic: z.string(),
  createdAt: z.iso.datetime({ offset: true }),
  ingestorId: ZId,
});
export type TDataSource = z.infer<typeof ZDataSource>;
export const ZDataSourceList = z.array(ZDataSource);
export const ZDataSourceParams = z.strictObject({ dataSourceId: ZId });

export const ZCreateDataSourceBody = z.strictObject({
  name: z.string().trim().min(1, "Name is required").max(100, "Name must be at most 100 characters"),
  topic: z
    .string()
    .trim()
    .min(1, "Topic is required")
    .refine(isMqttTopicFilter, DATA_SOURCE_MESSAGES.topicInvalid),
});
export type TCreateDataSourceBody = z.infer<typeof ZCreateDataSourceBody>;
