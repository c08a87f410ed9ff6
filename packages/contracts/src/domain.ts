import { z } from "zod";
import {
  ALERT_EVENT_KINDS,
  ALERT_KINDS,
  ALERT_STATES,
  ALERT_THRESHOLDS,
  EVALUATION_STATES,
  MONITOR_TYPES,
  NOTIFICATION_CHANNELS,
  OUTBOX_STATES,
  QUALITY_CHARACTERISTICS,
  RULE_TYPES,
  SERVER_ALERT_THRESHOLDS,
  SIGNAL_ENTITY_TYPES,
  SIGNAL_LIMIT_SIDES,
} from "./domain-values.js";

// The domain's value sets as zod enums, built from domain-values.ts's lists (defined once there):
// the database schema, the API, the worker and the web import them from here (architecture
// "Domain model"; docs/monitoring.md).

// ── Monitors ───────────────────────────────────────────────────────────────────────────────────

export const ZMonitorType = z.enum(MONITOR_TYPES);
export type TMonitorType = z.infer<typeof ZMonitorType>;

export const ZAlertThreshold = z.enum(ALERT_THRESHOLDS);
export type TAlertThreshold = z.infer<typeof ZAlertThreshold>;

export const ZServerAlertThreshold = z.enum(SERVER_ALERT_THRESHOLDS);
export type TServerAlertThreshold = z.infer<typeof ZServerAlertThreshold>;

export const ZEvaluationState = z.enum(EVALUATION_STATES);
export type TEvaluationState = z.infer<typeof ZEvaluationState>;

export const ZRuleType = z.enum(RULE_TYPES);
export type TRuleType = z.infer<typeof ZRuleType>;

// ── Alerts and notifications ───────────────────────────────────────────────────────────────────

export const ZAlertState = z.enum(ALERT_STATES);
export const ZAlertKind = z.enum(ALERT_KINDS);
export type TAlertKind = z.infer<typeof ZAlertKind>;
export type TAlertState = z.infer<typeof ZAlertState>;

export const ZAlertEventKind = z.enum(ALERT_EVENT_KINDS);

export const ZNotificationChannel = z.enum(NOTIFICATION_CHANNELS);
export const ZOutboxState = z.enum(OUTBOX_STATES);

// ── Signals ────────────────────────────────────────────────────────────────────────────────────

export const ZSignalEntityType = z.enum(SIGNAL_ENTITY_TYPES);
export type TSignalEntityType = z.infer<typeof ZSignalEntityType>;

export const ZQualityCharacteristic = z.enum(QUALITY_CHARACTERISTICS);

export const ZSignalLimitSide = z.enum(SIGNAL_LIMIT_SIDES);
