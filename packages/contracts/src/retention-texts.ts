// Data retention's texts, bounds and defaults, apart from retention.ts's schema: the Settings →
// Data retention page shows and checks these, so it loads without zod (issue #17: a module goes
// whole into the chunk of the page that first uses it). Issue 31 §2; decision 0301.

/** The four kinds of rows a customer's retention sets a horizon for, in the page's order. */
export const RETENTION_FIELDS = [
  "partRecordsDays",
  "evaluationsDays",
  "resolvedAlertsDays",
  "auditLogDays",
] as const;
export type TRetentionField = (typeof RETENTION_FIELDS)[number];

/** Days per field; null keeps the rows for ever. */
export type TRetentionDays = Record<TRetentionField, number | null>;

/**
 * What a customer keeps until its administrator says otherwise (issue 31): part records 400 days
 * (a year and a month: last year's same month stays comparable), evaluations 90 days, resolved
 * alerts with their notifications 2 years, the audit log for ever.
 */
export const RETENTION_DEFAULTS: TRetentionDays = {
  partRecordsDays: 400,
  evaluationsDays: 90,
  resolvedAlertsDays: 730,
  auditLogDays: null,
};

/**
 * The shortest horizon each field takes, and the longest (10 years: beyond it "keep for ever"
 * says what is meant). Why each minimum (docs/decisions/0301-retention-per-customer.md): part
 * records 7 days, a floor against a typed "1" wiping the plant's records at the next hour;
 * evaluations 7 days, the alert history's recent trend; resolved
 * alerts 30 days, a month to review what was resolved; the audit log 365 days, a trail shorter than
 * a year serves no audit.
 */
export const RETENTION_BOUNDS = {
  min: { partRecordsDays: 7, evaluationsDays: 7, resolvedAlertsDays: 30, auditLogDays: 365 },
  maxDays: 3650,
} as const satisfies { min: TRetentionDays & Record<TRetentionField, number>; maxDays: number };

const LABELS: Record<TRetentionField, string> = {
  partRecordsDays: "Part records",
  evaluationsDays: "Evaluations",
  resolvedAlertsDays: "Resolved alerts and notifications",
  auditLogDays: "Audit log",
};

/** Words the Settings → Data retention page and the server's refusals use. */
export const RETENTION_TEXTS = {
  menuItem: "Data retention",
  title: "Data retention",
  intro:
    "How long this customer's data is kept. Older rows are deleted by the hourly housekeeping run. Open alerts and their evidence are always kept.",
  labels: LABELS,
  helper: {
    partRecordsDays: "Measurements received from the line.",
    evaluationsDays:
      "Monitor results. Breaching evaluations and those an alert refers to are kept as long as their alert.",
    resolvedAlertsDays: "Counted from when the alert was resolved; with its events and notifications.",
    auditLogDays: "Configuration changes.",
  } satisfies Record<TRetentionField, string>,
  days: "days",
  keepForever: "Keep for ever",
  forever: "for ever",
  defaultIs: (days: number | null) => `Default: ${days === null ? "for ever" : `${days} days`}`,
  save: "Save",
  saved: "Data retention saved",
  saveError: "Data retention could not be saved",
  errorLoading: "Error Loading Data",
  confirmTitle: "Delete older records?",
  /** One line per shortened horizon in the Save confirmation. */
  confirmLine: (field: TRetentionField, days: number) =>
    `${LABELS[field]}: records older than ${days} days will be deleted at the next housekeeping run.`,
  confirm: "Save and delete",
  cancel: "Cancel",
} as const;

/** Server answers and the form's checks (the same words on both sides). */
export const RETENTION_MESSAGES = {
  whole: (field: TRetentionField) => `${LABELS[field]}: days must be a whole number`,
  min: (field: TRetentionField) => `${LABELS[field]}: at least ${RETENTION_BOUNDS.min[field]} days`,
  max: (field: TRetentionField) =>
    `${LABELS[field]}: at most ${RETENTION_BOUNDS.maxDays} days (10 years); choose "Keep for ever" for longer`,
  required: (field: TRetentionField) => `${LABELS[field]}: enter a number of days or choose "Keep for ever"`,
} as const;

/** A field's problem, or null: the rule the contract's schema applies, for the form. */
export function retentionDaysError(field: TRetentionField, value: number | null): string | null {
  if (value === null) return null;
  if (!Number.isFinite(value)) return RETENTION_MESSAGES.required(field);
  if (!Number.isInteger(value)) return RETENTION_MESSAGES.whole(field);
  if (value < RETENTION_BOUNDS.min[field]) return RETENTION_MESSAGES.min(field);
  if (value > RETENTION_BOUNDS.maxDays) return RETENTION_MESSAGES.max(field);
  return null;
}

/**
 * The horizons a change shortens (a number now that is smaller than before, or a number where it
 * was for ever): rows past them go at the next housekeeping run, so the page asks first.
 */
export function shortenedRetention(
  before: TRetentionDays,
  after: TRetentionDays,
): { field: TRetentionField; days: number }[] {
  return RETENTION_FIELDS.flatMap((field) => {
    const b = before[field];
    const a = after[field];
    return a !== null && (b === null || a < b) ? [{ field, days: a }] : [];
  });
}
