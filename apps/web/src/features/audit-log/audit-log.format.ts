/** Longer texts are cut to this many characters in a row; the whole text opens on demand. */
export const AUDIT_VALUE_SHORT_CHARS = 80;

/** Stands for a field the record has not got on that side (before a create, after a delete). */
export const AUDIT_ABSENT = "—";
/** A field recorded as null (not set). */
export const AUDIT_EMPTY = "(empty)";

/**
 * A recorded field value as one line of text: strings as they are, numbers and booleans as
 * written, lists and objects as compact JSON.
 */
export function formatAuditValue(v: unknown): string {
  if (v === undefined) return AUDIT_ABSENT;
  if (v === null) return AUDIT_EMPTY;
  if (typeof v === "string") return v === "" ? '""' : v;
  if (typeof v === "number" || typeof v === "boolean") return String(v);
  return JSON.stringify(v);
}

/** The text shown in a row: the whole value, or its start and an ellipsis when it is long. */
export function shortAuditValue(text: string): { text: string; isCut: boolean } {
  if (text.length <= AUDIT_VALUE_SHORT_CHARS) return { text, isCut: false };
  return { text: `${text.slice(0, AUDIT_VALUE_SHORT_CHARS - 1)}…`, isCut: true };
}
