/**
 * The shapes of the demo catalog, and where each signal's value sits in a part record's arrays
 * (part_records.num_values / text_values by the signal's storage and slot).
 */
import type { TSignalEntityType } from "@linewatch/contracts";
export type EntityType = TSignalEntityType;
export type Storage = "num" | "text";

export type DemoClassification = {
  value: string;
  result: "pass" | "fail" | "other";
  failureMode: string | null;
};

export type DemoSignal = {
  name: string;
  type: EntityType;
  unit?: string;
  friendlyName?: string;
  quality?: "CRITICAL" | "SIGNIFICANT" | "HIGH_IMPACT";
  singleSide?: "LOWER" | "UPPER";
  /** Names of the associated signals in the same station. */
  upper?: string;
  lower?: string;
  result?: string;
  classifications?: readonly DemoClassification[];
  inactive?: boolean;
  /** Defaults by entity type: measurements and limits are numbers, the rest text. */
  storage?: Storage;
};

export type DemoStation = { name: string; final?: boolean; signals: readonly DemoSignal[] };

export type DemoLine = {
  name: string;
  friendlyName?: string;
  ingestionThresholdHours: number | null;
  isNewLine: boolean;
  /** Whether demo.records.ts simulates 14 days of parts for this line. */
  hasRecords: boolean;
  stations: readonly DemoStation[];
  /** Signal groups; members as [station, signal]. */
  groups: readonly { name: string; members: readonly (readonly [string, string])[] }[];
  modelNumbers: readonly { value: string; isChallenge: boolean }[];
  challengeParts: readonly string[];
  /** Lines that feed this one, by name, in the same plant. */
  feeders?: readonly string[];
};

export type DemoPlant = {
  name: string;
  timeZone: string;
  /** The topic filter of the plant's one data source (the line simulator publishes there). */
  topic: string;
  lines: readonly DemoLine[];
};

const NUMERIC_TYPES: ReadonlySet<EntityType> = new Set(["MEASUREMENT", "UPPER_LIMIT", "LOWER_LIMIT"]);
export const storageOf = (s: DemoSignal): Storage =>
  s.storage ?? (NUMERIC_TYPES.has(s.type) ? "num" : "text");

export type SlotLayout = {
  /** Signal name → where its value sits in the record's arrays (0-based). */
  slots: ReadonlyMap<string, { storage: Storage; slot: number }>;
  numCount: number;
  textCount: number;
};

/** Slots in declaration order, numbers and texts counted separately (stations.next_*_slot). */
export function stationLayout(station: DemoStation): SlotLayout {
  const slots = new Map<string, { storage: Storage; slot: number }>();
  let numCount = 0;
  let textCount = 0;
  for (const s of station.signals) {
    const storage = storageOf(s);
    slots.set(s.name, { storage, slot: storage === "num" ? numCount++ : textCount++ });
  }
  return { slots, numCount, textCount };
}
