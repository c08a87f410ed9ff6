import { z } from "zod";
import { ZId, zString } from "./common.js";
import { ZSignalEntityType } from "./domain.js";

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

/** Bounds of a data source's fields (name: team decision; topic: MQTT bound of isMqttTopicFilter). */
export const DATA_SOURCE_NAME_MAX = 100;
export const DATA_SOURCE_TOPIC_MAX = 255;

/** Whether a concrete topic matches a topic filter (MQTT 3.1.1 §4.7; '$' topics only match '$' filters). */
export function topicMatches(filter: string, topic: string): boolean {
  const f = filter.startsWith("$share/") ? filter.split("/").slice(2).join("/") : filter;
  const fl = f.split("/");
  const tl = topic.split("/");
  if (topic.startsWith("$") && (fl[0] === "+" || fl[0] === "#")) return false;
  for (let i = 0; i < fl.length; i++) {
    if (fl[i] === "#") return true;
    if (i >= tl.length) return false;
    if (fl[i] !== "+" && fl[i] !== tl[i]) return false;
  }
  return fl.length === tl.length;
}

/**
 * Line and station from the topic when the record has none: the last two levels name them
 * (`…/<line>/<station>`).
 */
export function topicDefaults(topic: string): { line?: string; station?: string } {
  const levels = topic.split("/").filter(Boolean);
  if (levels.length < 2) return {};
  return { line: levels[levels.length - 2], station: levels[levels.length - 1] };
}

/**
 * Whether some topic matches both filters. Used to keep every topic owned by one plant: a filter
 * overlapping another plant's would let one plant's data source read another's records.
 */
export function topicFiltersOverlap(a: string, b: string): boolean {
  const al = a.split("/");
  const bl = b.split("/");
  for (let i = 0; ; i++) {
    const x = al[i];
    const y = bl[i];
    if (x === "#" || y === "#") return true;
    if (x === undefined || y === undefined) return x === y;
    if (x !== "+" && y !== "+" && x !== y) return false;
  }
}

export const DATA_SOURCE_MESSAGES = {
  topicTaken:
    "This topic overlaps the topic of a data source of another plant: every topic must belong to one plant",
  title: "Data Sources",
  empty: "No data sources",
  fetchError: "Fetch Sources Error",
  fetchErrorStatus: (status: number | string) => `Status : ${status}`,
  fetchDatasourcesError: "Error fetching datasources",
  ingestorError: "Error fetching ingestor",
  plantRequired: "Plant ID is required to fetch ingestors.",
  deleteTitle: (name: string) => `Delete Source : ${name}`,
  deleted: "Source was deleted Successfully",
  /** Title and status line of the failed-delete modal (spec: "an error modal with Status and statusText"). */
  deleteFailedTitle: (name: string) => `Unable to Delete Source : ${name}`,
  deleteFailedStatus: (status: number) => `Status: ${status}`,
  created: "Data source added",
  nameTaken: "A data source with this name already exists for this plant",
  topicInvalid: "Topic must be a valid MQTT topic filter ('+' and '#' only as whole levels, '#' last)",
  topicReserved: "Topic cannot start with '$' (reserved for the broker)",
  topicTooLong: `Topic must be at most ${DATA_SOURCE_TOPIC_MAX} characters`,
  nameRequired: "Name is required",
  nameTooLong: `Name must be at most ${DATA_SOURCE_NAME_MAX} characters`,
  topicRequired: "Topic is required",
  notFound: "Data source not found",
  insightMappingNote:
    "Field mapping arrives with ingestion: records published on this topic will be mapped to lines, stations and signals here.",
} as const;

/** A data source (requirements.md monitor-forms §3 "Other entities"). */
export const ZDataSource = z.object({
  id: ZId,
  name: zString(),
  topic: zString(),
  createdAt: z.iso.datetime({ offset: true }),
  ingestorId: ZId,
});
export type TDataSource = z.infer<typeof ZDataSource>;
export const ZDataSourceList = z.array(ZDataSource);
export const ZDataSourceParams = z.strictObject({ dataSourceId: ZId });

/** Messages and dead letters shown on the insight-mapping page. */
export const INSIGHT_DEAD_LETTERS_MAX = 50;
export const INSIGHT_RECORDS_PER_MESSAGE_MAX = 20;

export const INSIGHT_MESSAGES = {
  noMessages: "No messages received on this topic yet",
  noDeadLetters: "No dead letters: every message on this topic could be stored",
  newSignal: "new signal",
  loadError: "Error fetching insight",
} as const;

/** How one field of a message becomes a signal: `measurements.Torque` → Torque (MEASUREMENT). */
export const ZInsightField = z.object({
  path: zString(),
  signalName: zString(),
  entityType: ZSignalEntityType,
  /** New with this message: no such signal at the station yet, or this message's record created it. */
  isNew: z.boolean(),
  value: zString().nullable(),
  /** Why the record would be refused for this field (e.g. a text value for a numeric signal). */
  problem: zString().nullable(),
});
export type TInsightField = z.infer<typeof ZInsightField>;

/** One record of a message, resolved the way the ingestor resolves it. */
export const ZInsightRecord = z.object({
  line: zString().nullable(),
  /** Where the line name came from: the record's body wins over the topic's last two levels. */
  lineFrom: z.enum(["body", "topic"]).nullable(),
  /** New with this message, like a field's isNew. */
  isNewLine: z.boolean(),
  station: zString().nullable(),
  stationFrom: z.enum(["body", "topic"]).nullable(),
  isNewStation: z.boolean(),
  partId: zString().nullable(),
  timestamp: zString().nullable(),
  /** Why the ingestor would refuse this record; null when it would be stored. */
  problem: zString().nullable(),
  fields: z.array(ZInsightField),
});
export type TInsightRecord = z.infer<typeof ZInsightRecord>;

export const ZInsightMessage = z.object({
  id: ZId,
  receivedAt: z.iso.datetime({ offset: true }),
  topic: zString(),
  payload: zString(),
  /** Why the payload holds no records (not JSON); null otherwise. */
  error: zString().nullable(),
  records: z.array(ZInsightRecord),
  /** Records of the message beyond INSIGHT_RECORDS_PER_MESSAGE_MAX. */
  moreRecords: z.number().int(),
});
export type TInsightMessage = z.infer<typeof ZInsightMessage>;

export const ZDeadLetter = z.object({
  id: ZId,
  receivedAt: z.iso.datetime({ offset: true }),
  topic: zString().nullable(),
  reason: zString(),
  payload: zString(),
});
export type TDeadLetter = z.infer<typeof ZDeadLetter>;

/** GET /api/data-sources/{dataSourceId}/insight: newest first, times in the plant's time zone. */
export const ZDataSourceInsight = z.object({
  source: ZDataSource,
  timeZone: zString(),
  messages: z.array(ZInsightMessage),
  deadLetters: z.array(ZDeadLetter),
  /** Dead letters of the source in all (the list holds the newest INSIGHT_DEAD_LETTERS_MAX). */
  deadLetterCount: z.number().int(),
});
export type TDataSourceInsight = z.infer<typeof ZDataSourceInsight>;
