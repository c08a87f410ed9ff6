import {
  DATA_SOURCE_MESSAGES,
  describeIssues,
  INSIGHT_DEAD_LETTERS_MAX,
  INSIGHT_RECORDS_PER_MESSAGE_MAX,
  isStorableText,
  type TDataSourceInsight,
  type TInsightField,
  type TInsightMessage,
  type TInsightRecord,
  type TSignalEntityType,
  topicDefaults,
  toStorableText,
  ZPartRecord,
} from "@linewatch/contracts";
import { and, count, desc, eq, inArray } from "drizzle-orm";
import type { Db } from "../../db/client.js";
import {
  dataSourceMessages,
  dataSources,
  deadLetters,
  ingestors,
  lines,
  plants,
  signals,
  stations,
} from "../../db/schema/index.js";
import { AppError } from "../../errors.js";
import type { AuthContext } from "../auth/auth.service.js";

type Storage = "num" | "text";
/** A field of a message as the ingestor reads it, before looking up its signal. */
type FieldWant = {
  path: string;
  signalName: string;
  entityType: TSignalEntityType;
  storage: Storage;
  value: unknown;
};
type Existing = { entityType: TSignalEntityType; storage: Storage; createdAt: Date };
type StationEntry = { createdAt: Date; signals: Map<string, Existing> };
type LineEntry = { createdAt: Date; stations: Map<string, StationEntry> };
/** What exists in the plant: line → station → signal name → signal. */
type Catalog = Map<string, LineEntry>;

const isObject = (v: unknown): v is Record<string, unknown> =>
  typeof v === "object" && v !== null && !Array.isArray(v);
const str = (v: unknown): string | null => (typeof v === "string" && v.trim() !== "" ? v.trim() : null);
const show = (v: unknown): string | null =>
  v === undefined ? null : typeof v === "string" ? v : (JSON.stringify(v) ?? null);

/**
 * The fields of one record and the signals they feed, in the ingest service's order and names
 * (docs/monitoring.md "Part records"): measurements → MEASUREMENT, limits → "<name> Upper Limit" /
 * "<name> Lower Limit" (UPPER_LIMIT / LOWER_LIMIT), results → RESULT, attributes → PART_ATTRIBUTE.
 */
export function fieldsOf(body: Record<string, unknown>): FieldWant[] {
  const wants: FieldWant[] = [];
  const group = (key: string) => (isObject(body[key]) ? Object.entries(body[key]) : []);
  for (const [name, value] of group("results"))
    wants.push({ path: `results.${name}`, signalName: name, entityType: "RESULT", storage: "text", value });
  for (const [name, value] of group("attributes"))
    wants.push({
      path: `attributes.${name}`,
      signalName: name,
      entityType: "PART_ATTRIBUTE",
      storage: "text",
      value,
    });
  for (const [name, value] of group("measurements"))
    wants.push({
      path: `measurements.${name}`,
      signalName: name,
      entityType: "MEASUREMENT",
      storage: "num",
      value,
    });
  for (const [name, limit] of group("limits")) {
    if (!isObject(limit)) continue;
    for (const side of ["upper", "lower"] as const) {
      if (!(side in limit)) continue;
      wants.push({
        path: `limits.${name}.${side}`,
        signalName: `${name} ${side === "upper" ? "Upper" : "Lower"} Limit`,
        entityType: side === "upper" ? "UPPER_LIMIT" : "LOWER_LIMIT",
        storage: "num",
        value: limit[side],
      });
    }
  }
  return wants;
}

/** Line and station of a record: the body wins, else the topic's last two levels (batcher.ts). */
export function resolvePlace(body: Record<string, unknown>, topic: string) {
  const fromTopic = topicDefaults(topic);
  const line = str(body.line) ?? fromTopic.line ?? null;
  const station = str(body.station) ?? fromTopic.station ?? null;
  return {
    line,
    lineFrom: str(body.line) ? ("body" as const) : line ? ("topic" as const) : null,
    station,
    stationFrom: str(body.station) ? ("body" as const) : station ? ("topic" as const) : null,
  };
}

/** Parses a sampled message into the records the ingestor would see (one, or an array). */
function itemsOf(payload: string): { items: unknown[]; error: string | null } {
  try {
    const parsed: unknown = JSON.parse(payload);
    return { items: Array.isArray(parsed) ? parsed : [parsed], error: null };
  } catch (err) {
    return { items: [], error: `payload is not JSON: ${(err as Error).message}` };
  }
}

/**
 * Whether a line, station or signal was new to this message: it does not exist yet, or it was
 * created at or after the message arrived (the ingestor samples a message before storing it,
 * so a signal its record created is younger than the sample).
 */
const isNewFor = (receivedAt: Date, entry: { createdAt: Date } | undefined) =>
  !entry || entry.createdAt.getTime() >= receivedAt.getTime();

/**
 * A sampled payload is stored as text the database can hold, but its JSON escapes may still
 * spell NUL or an unpaired surrogate (`"\u0000"`, `"\ud800"`), which JSON.parse turns back into
 * what neither the database nor the answer's schema accepts. The page shows them as the dead
 * letters do (toStorableText: NUL as the six characters `\u0000`, a lone surrogate as U+FFFD), so
 * the record and every signal in it stay listed, with the problem that made the ingestor refuse it.
 */
const visible = <T extends string | null>(s: T): T => (s === null ? s : (toStorableText(s) as T));

function visibleRecord(r: TInsightRecord): TInsightRecord {
  return {
    ...r,
    line: visible(r.line),
    station: visible(r.station),
    partId: visible(r.partId),
    timestamp: visible(r.timestamp),
    problem: visible(r.problem),
    fields: r.fields.map((f) => ({
      ...f,
      path: visible(f.path),
      signalName: visible(f.signalName),
      value: visible(f.value),
      problem: visible(f.problem),
    })),
  };
}

function mapRecord(item: unknown, topic: string, receivedAt: Date, catalog: Catalog): TInsightRecord {
  if (!isObject(item)) {
    return {
      line: null,
      lineFrom: null,
      isNewLine: false,
      station: null,
      stationFrom: null,
      isNewStation: false,
      partId: null,
      timestamp: null,
      problem: "a record must be a JSON object",
      fields: [],
    };
  }
  const place = resolvePlace(item, topic);
  const knownLine = place.line ? catalog.get(place.line) : undefined;
  const known = place.station ? knownLine?.stations.get(place.station) : undefined;
  const fields: TInsightField[] = fieldsOf(item).map((f) => {
    const existing = known?.signals.get(f.signalName);
    const storage = existing?.storage ?? f.storage;
    const hasValue = f.value !== null && f.value !== undefined;
    const problem =
      existing && existing.storage !== f.storage
        ? `signal "${f.signalName}" holds ${existing.storage === "num" ? "numbers" : "text"}`
        : hasValue && storage === "num" && typeof f.value !== "number"
          ? "expected a number"
          : hasValue && storage === "text" && typeof f.value !== "string"
            ? "expected text"
            : null;
    return {
      path: f.path,
      signalName: f.signalName,
      entityType: existing?.entityType ?? f.entityType,
      isNew: isNewFor(receivedAt, existing),
      value: show(f.value),
      problem,
    };
  });
  const parsed = ZPartRecord.safeParse({
    ...(place.line && { line: place.line }),
    ...(place.station && { station: place.station }),
    ...item,
  });
  const problem = !parsed.success
    ? describeIssues(parsed.error)
    : !place.line
      ? "line is required (in the record or the topic)"
      : !place.station
        ? "station is required (in the record or the topic)"
        : (fields.find((f) => f.problem)?.problem ?? null);
  return {
    ...place,
    isNewLine: !!place.line && isNewFor(receivedAt, knownLine),
    isNewStation: !!place.station && isNewFor(receivedAt, known),
    partId: str(item.partId),
    timestamp: str(item.timestamp),
    problem,
    fields,
  };
}

const notFound = () => new AppError("NOT_FOUND", DATA_SOURCE_MESSAGES.notFound);

/**
 * The insight-mapping page of one data source: its latest sampled messages with how each field
 * maps to a line, station and signal (existing or about to be created), and its dead letters.
 */
export function createDataSourceInsight(deps: { db: Db }) {
  const { db } = deps;

  /** The signals of the named lines and stations of a plant. */
  async function catalogOf(plantId: string, lineNames: string[], stationNames: string[]): Promise<Catalog> {
    const catalog: Catalog = new Map();
    if (!lineNames.length) return catalog;
    const lineRows = await db
      .select({ id: lines.id, name: lines.name, createdAt: lines.createdAt })
      .from(lines)
      .where(and(eq(lines.plantId, plantId), inArray(lines.name, lineNames)));
    for (const l of lineRows) catalog.set(l.name, { createdAt: l.createdAt, stations: new Map() });
    if (!lineRows.length || !stationNames.length) return catalog;
    const lineName = new Map(lineRows.map((l) => [l.id, l.name]));
    const stationRows = await db
      .select({
        id: stations.id,
        lineId: stations.lineId,
        name: stations.name,
        createdAt: stations.createdAt,
      })
      .from(stations)
      .where(
        and(
          inArray(
            stations.lineId,
            lineRows.map((l) => l.id),
          ),
          inArray(stations.name, stationNames),
        ),
      );
    const byStation = new Map<string, Map<string, Existing>>();
    for (const s of stationRows) {
      const m = new Map<string, Existing>();
      byStation.set(s.id, m);
      catalog.get(lineName.get(s.lineId) ?? "")?.stations.set(s.name, { createdAt: s.createdAt, signals: m });
    }
    if (!stationRows.length) return catalog;
    const signalRows = await db
      .select({
        stationId: signals.stationId,
        name: signals.name,
        entityType: signals.entityType,
        storage: signals.storage,
        createdAt: signals.createdAt,
      })
      .from(signals)
      .where(inArray(signals.stationId, [...byStation.keys()]));
    for (const s of signalRows)
      byStation
        .get(s.stationId)
        ?.set(s.name, { entityType: s.entityType, storage: s.storage, createdAt: s.createdAt });
    return catalog;
  }

  return {
    async get(ctx: AuthContext, dataSourceId: string): Promise<TDataSourceInsight> {
      const [source] = await db
        .select({
          id: dataSources.id,
          name: dataSources.name,
          topic: dataSources.topic,
          createdAt: dataSources.createdAt,
          ingestorId: dataSources.ingestorId,
          plantId: ingestors.plantId,
          timeZone: plants.timeZone,
        })
        .from(dataSources)
        .innerJoin(ingestors, eq(ingestors.id, dataSources.ingestorId))
        .innerJoin(plants, eq(plants.id, ingestors.plantId))
        .where(and(eq(dataSources.customerId, ctx.customerId), eq(dataSources.id, dataSourceId)));
      if (!source) throw notFound();

      const [messageRows, deadRows, [deadCount]] = await Promise.all([
        db
          .select({
            id: dataSourceMessages.id,
            topic: dataSourceMessages.topic,
            payload: dataSourceMessages.payload,
            receivedAt: dataSourceMessages.receivedAt,
          })
          .from(dataSourceMessages)
          .where(eq(dataSourceMessages.dataSourceId, source.id))
          .orderBy(desc(dataSourceMessages.receivedAt), desc(dataSourceMessages.id)),
        db
          .select({
            id: deadLetters.id,
            topic: deadLetters.topic,
            reason: deadLetters.reason,
            payload: deadLetters.payload,
            receivedAt: deadLetters.receivedAt,
          })
          .from(deadLetters)
          .where(and(eq(deadLetters.customerId, ctx.customerId), eq(deadLetters.dataSourceId, source.id)))
          .orderBy(desc(deadLetters.receivedAt), desc(deadLetters.id))
          .limit(INSIGHT_DEAD_LETTERS_MAX),
        db
          .select({ n: count() })
          .from(deadLetters)
          .where(and(eq(deadLetters.customerId, ctx.customerId), eq(deadLetters.dataSourceId, source.id))),
      ]);

      const parsed = messageRows.map((m) => ({ ...m, ...itemsOf(m.payload) }));
      const lineNames = new Set<string>();
      const stationNames = new Set<string>();
      for (const m of parsed)
        for (const item of m.items.slice(0, INSIGHT_RECORDS_PER_MESSAGE_MAX)) {
          if (!isObject(item)) continue;
          const place = resolvePlace(item, m.topic);
          // A name the database cannot hold names no line or station (and cannot be a parameter).
          if (place.line && isStorableText(place.line)) lineNames.add(place.line);
          if (place.station && isStorableText(place.station)) stationNames.add(place.station);
        }
      const catalog = await catalogOf(source.plantId, [...lineNames], [...stationNames]);

      const messages: TInsightMessage[] = parsed.map((m) => ({
        id: m.id,
        receivedAt: m.receivedAt.toISOString(),
        topic: m.topic,
        payload: m.payload,
        error: visible(m.error),
        records: m.items
          .slice(0, INSIGHT_RECORDS_PER_MESSAGE_MAX)
          .map((item) => visibleRecord(mapRecord(item, m.topic, m.receivedAt, catalog))),
        moreRecords: Math.max(0, m.items.length - INSIGHT_RECORDS_PER_MESSAGE_MAX),
      }));
      return {
        source: {
          id: source.id,
          name: source.name,
          topic: source.topic,
          createdAt: source.createdAt.toISOString(),
          ingestorId: source.ingestorId,
        },
        timeZone: source.timeZone,
        messages,
        deadLetters: deadRows.map((d) => ({ ...d, receivedAt: d.receivedAt.toISOString() })),
        deadLetterCount: deadCount?.n ?? 0,
      };
    },
  };
}
export type DataSourceInsight = ReturnType<typeof createDataSourceInsight>;
