// Lines, their stations and signals, and what the signals are configured with (groups, result
// classifications, SPC limits, challenge parts).
import {
  QUALITY_CHARACTERISTICS,
  RESULT_VALUES,
  SIGNAL_ENTITY_TYPES,
  SIGNAL_LIMIT_SIDES,
  SIGNAL_STORAGES,
} from "@linewatch/contracts";
import { sql } from "drizzle-orm";
import { boolean, index, integer, pgTable, primaryKey, text, uniqueIndex, uuid } from "drizzle-orm/pg-core";
import { id, ts } from "./columns.js";
import { customerRef, plants } from "./customers.js";

export const lines = pgTable(
  "lines",
  {
    id: id(),
    customerId: customerRef(),
    plantId: uuid("plant_id")
      .notNull()
      .references(() => plants.id, { onDelete: "cascade" }),
    name: text("name").notNull(),
    displayName: text("display_name"),
    friendlyName: text("friendly_name"),
    active: boolean("active").notNull().default(true),
    lastIngestedTime: ts("last_ingested_time"),
    isNewLine: boolean("is_new_line").notNull().default(false),
    /** No-data alert: hours after the last record before "No Ingestion" shows; null = off. */
    ingestionThresholdHours: integer("ingestion_threshold_hours"),
    alertViewingWindowDays: integer("alert_viewing_window_days").notNull().default(90),
    excludedPartIds: text("excluded_part_ids").array().notNull().default(sql`'{}'::text[]`),
    excludedModelNumbers: text("excluded_model_numbers").array().notNull().default(sql`'{}'::text[]`),
    createdAt: ts("created_at").notNull().defaultNow(),
  },
  (t) => [uniqueIndex("lines_plant_name_uq").on(t.plantId, t.name)],
);

/** A line fed by other lines (no cycles; checked by the lines service). */
export const lineFeeders = pgTable(
  "line_feeders",
  {
    customerId: customerRef(),
    lineId: uuid("line_id")
      .notNull()
      .references(() => lines.id, { onDelete: "cascade" }),
    feederLineId: uuid("feeder_line_id")
      .notNull()
      .references(() => lines.id, { onDelete: "cascade" }),
  },
  (t) => [primaryKey({ columns: [t.lineId, t.feederLineId] })],
);

export const stations = pgTable(
  "stations",
  {
    id: id(),
    customerId: customerRef(),
    lineId: uuid("line_id")
      .notNull()
      .references(() => lines.id, { onDelete: "cascade" }),
    name: text("name").notNull(),
    final: boolean("final").notNull().default(false),
    /** The line's catch-all station for signals that arrive without one. */
    isDefault: boolean("is_default").notNull().default(false),
    /** Next free slots in the part-record arrays of this station. */
    nextNumSlot: integer("next_num_slot").notNull().default(0),
    nextTextSlot: integer("next_text_slot").notNull().default(0),
    createdAt: ts("created_at").notNull().defaultNow(),
  },
  (t) => [uniqueIndex("stations_line_name_uq").on(t.lineId, t.name)],
);

export const signals = pgTable(
  "signals",
  {
    id: id(),
    customerId: customerRef(),
    lineId: uuid("line_id")
      .notNull()
      .references(() => lines.id, { onDelete: "cascade" }),
    stationId: uuid("station_id")
      .notNull()
      .references(() => stations.id, { onDelete: "cascade" }),
    name: text("name").notNull(),
    friendlyName: text("friendly_name"),
    entityType: text("entity_type", { enum: SIGNAL_ENTITY_TYPES }).notNull(),
    isSignalActive: boolean("is_signal_active").notNull().default(true),
    qualityCharacteristic: text("quality_characteristic", { enum: QUALITY_CHARACTERISTICS })
      .notNull()
      .default("NONE"),
    singleSide: text("single_side", { enum: SIGNAL_LIMIT_SIDES }),
    unit: text("unit"),
    upperLimitSignalId: uuid("upper_limit_signal_id"),
    lowerLimitSignalId: uuid("lower_limit_signal_id"),
    resultSignalId: uuid("result_signal_id"),
    /**
     * Where the signal's value sits in a part record: numeric signals in part_records.num_values,
     * text signals (results, attributes, component ids) in part_records.text_values. Fixed at
     * creation so a later entity-type change never moves stored data.
     */
    storage: text("storage", { enum: SIGNAL_STORAGES }).notNull(),
    slot: integer("slot").notNull(),
    createdAt: ts("created_at").notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex("signals_station_name_uq").on(t.stationId, t.name),
    uniqueIndex("signals_station_slot_uq").on(t.stationId, t.storage, t.slot),
    index("signals_line_idx").on(t.lineId),
  ],
);

export const resultClassifications = pgTable(
  "result_classifications",
  {
    id: id(),
    customerId: customerRef(),
    signalId: uuid("signal_id")
      .notNull()
      .references(() => signals.id, { onDelete: "cascade" }),
    value: text("value").notNull(),
    result: text("result", { enum: RESULT_VALUES }).notNull(),
    failureMode: text("failure_mode"),
  },
  (t) => [uniqueIndex("result_classifications_signal_value_uq").on(t.signalId, t.value)],
);

export const signalGroups = pgTable(
  "signal_groups",
  {
    id: id(),
    customerId: customerRef(),
    lineId: uuid("line_id")
      .notNull()
      .references(() => lines.id, { onDelete: "cascade" }),
    name: text("name").notNull(),
  },
  (t) => [uniqueIndex("signal_groups_line_name_uq").on(t.lineId, t.name)],
);

export const signalGroupMembers = pgTable(
  "signal_group_members",
  {
    groupId: uuid("group_id")
      .notNull()
      .references(() => signalGroups.id, { onDelete: "cascade" }),
    signalId: uuid("signal_id")
      .notNull()
      .references(() => signals.id, { onDelete: "cascade" }),
  },
  (t) => [primaryKey({ columns: [t.groupId, t.signalId] })],
);

/** Model numbers seen per line (kept on ingest; offered by filters). */
export const modelNumbers = pgTable(
  "model_numbers",
  {
    customerId: customerRef(),
    lineId: uuid("line_id")
      .notNull()
      .references(() => lines.id, { onDelete: "cascade" }),
    value: text("value").notNull(),
    /** Challenge (master) parts used to check the station, excluded from cap monitors on request. */
    isChallenge: boolean("is_challenge").notNull().default(false),
  },
  (t) => [primaryKey({ columns: [t.lineId, t.value] })],
);

/** Distinct values of part-attribute signals (kept on ingest; offered by filters). */
export const partAttributeValues = pgTable(
  "part_attribute_values",
  {
    signalId: uuid("signal_id")
      .notNull()
      .references(() => signals.id, { onDelete: "cascade" }),
    value: text("value").notNull(),
  },
  (t) => [primaryKey({ columns: [t.signalId, t.value] })],
);

/** Part ids used as challenge parts per line (cap exclusion). */
export const challengeParts = pgTable(
  "challenge_parts",
  {
    customerId: customerRef(),
    lineId: uuid("line_id")
      .notNull()
      .references(() => lines.id, { onDelete: "cascade" }),
    partId: text("part_id").notNull(),
  },
  (t) => [primaryKey({ columns: [t.lineId, t.partId] })],
);

/**
 * SPC limits per signal and model number ('*' = the default row); each limit is a formula that
 * may reference signals by id (packages/stats limit formulas).
 */
export const spcLimits = pgTable(
  "spc_limits",
  {
    id: id(),
    customerId: customerRef(),
    lineId: uuid("line_id")
      .notNull()
      .references(() => lines.id, { onDelete: "cascade" }),
    signalId: uuid("signal_id")
      .notNull()
      .references(() => signals.id, { onDelete: "cascade" }),
    modelNumber: text("model_number").notNull().default("*"),
    lslFormula: text("lsl_formula"),
    lclFormula: text("lcl_formula"),
    uclFormula: text("ucl_formula"),
    uslFormula: text("usl_formula"),
  },
  (t) => [uniqueIndex("spc_limits_signal_model_uq").on(t.signalId, t.modelNumber)],
);
