import { z } from "zod";
import { zString } from "./common.js";
import {
  DATA_SOURCE_MESSAGES,
  DATA_SOURCE_NAME_MAX,
  DATA_SOURCE_TOPIC_MAX,
  isMqttTopicFilter,
} from "./data-sources.js";

// The bodies of the Data Sources page's two add dialogs (a data source, an ingest token), apart
// from data-sources.ts and ingest-tokens.ts: the page uses those modules' texts and loads the
// dialogs, and with them zod, only when one opens (issue #17: wherever one export of a module is
// used, all of the module's schemas are built).

/**
 * Add a data source to a plant's ingestor. The same schema validates the dialog and the route.
 * Topics starting with '$' are refused: they name broker internals ($SYS) or shared
 * subscriptions ($share), which the ingestor builds itself.
 */
export const ZCreateDataSourceBody = z.strictObject({
  name: zString()
    .trim()
    .min(1, DATA_SOURCE_MESSAGES.nameRequired)
    .max(DATA_SOURCE_NAME_MAX, DATA_SOURCE_MESSAGES.nameTooLong),
  topic: zString()
    .trim()
    // One message per problem: a failed bound stops the later checks.
    .min(1, { error: DATA_SOURCE_MESSAGES.topicRequired, abort: true })
    .max(DATA_SOURCE_TOPIC_MAX, { error: DATA_SOURCE_MESSAGES.topicTooLong, abort: true })
    .refine((t) => !t.startsWith("$"), { error: DATA_SOURCE_MESSAGES.topicReserved, abort: true })
    .refine(isMqttTopicFilter, DATA_SOURCE_MESSAGES.topicInvalid),
});
export type TCreateDataSourceBody = z.infer<typeof ZCreateDataSourceBody>;

/** A named ingest token for a plant (Data Sources page, Ingest tokens). */
export const ZCreateIngestTokenBody = z.strictObject({
  name: zString().trim().min(1, "Name is required").max(100, "Name must be at most 100 characters"),
});
export type TCreateIngestTokenBody = z.infer<typeof ZCreateIngestTokenBody>;
