import {
  RETENTION_FIELDS,
  RETENTION_MESSAGES,
  retentionDaysError,
  type TFieldProblem,
  type TRetentionDays,
  type TRetentionField,
} from "@linewatch/contracts";
import type { FieldErrors, Resolver } from "react-hook-form";
import { ApiError } from "../../../shared/api/client";

// Settings → Data retention's form rules (issue 31 §2): per field a number of days or "Keep for
// ever"; the contract's bounds and words (retention-texts.ts), checked without zod so the page's
// chunk stays small (issue #17).

export type RetentionFieldValue = { days: string; forever: boolean };
export type RetentionFormValues = Record<TRetentionField, RetentionFieldValue>;

/** The form's values for the stored (or default) days: for ever leaves the last number empty. */
export const retentionFormDefaults = (days: TRetentionDays): RetentionFormValues =>
  Object.fromEntries(
    RETENTION_FIELDS.map((f) => {
      const d = days[f];
      return [f, { days: d === null ? "" : String(d), forever: d === null }];
    }),
  ) as RetentionFormValues;

/** A field's days as the body takes them: null for ever, NaN when the text is not a number. */
const daysOf = (v: RetentionFieldValue): number | null =>
  v.forever ? null : v.days.trim() === "" ? Number.NaN : Number(v.days.trim());

/** Each field's problem (the contract's message), or none. */
export function retentionFormErrors(v: RetentionFormValues): Partial<Record<TRetentionField, string>> {
  const errors: Partial<Record<TRetentionField, string>> = {};
  for (const f of RETENTION_FIELDS) {
    const days = daysOf(v[f]);
    const problem =
      days !== null && Number.isNaN(days) ? RETENTION_MESSAGES.required(f) : retentionDaysError(f, days);
    if (problem) errors[f] = problem;
  }
  return errors;
}

/** The PUT body of a valid form. */
export const retentionFormBody = (v: RetentionFormValues): TRetentionDays =>
  Object.fromEntries(RETENTION_FIELDS.map((f) => [f, daysOf(v[f])])) as TRetentionDays;

/** react-hook-form's resolver over retentionFormErrors; a field's error sits on its days. */
export const retentionResolver: Resolver<RetentionFormValues> = (values) => {
  const errors = retentionFormErrors(values);
  if (Object.keys(errors).length === 0) return { values, errors: {} };
  return {
    values: {},
    errors: Object.fromEntries(
      Object.entries(errors).map(([f, message]) => [f, { days: { type: "validate", message } }]),
    ) as FieldErrors<RetentionFormValues>,
  };
};

/** Where the server's refusal shows: under the field its 400 names, else above the form. */
export function placeRetentionError(err: unknown): { field?: TRetentionField; message: string } {
  const message = err instanceof Error ? err.message : "";
  if (err instanceof ApiError && err.status === 400 && Array.isArray(err.body.fields)) {
    for (const p of err.body.fields as TFieldProblem[]) {
      const field = RETENTION_FIELDS.find((f) => f === p.field);
      if (p.in === "body" && field && p.message) return { field, message: p.message };
    }
  }
  return { message };
}
