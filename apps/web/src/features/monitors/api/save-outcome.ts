import { MONITOR_MESSAGES } from "@linewatch/contracts";

/** One part of a save: the monitor or its alert rules. */
export type SavePart = { part: "monitor" | "rules"; ok: boolean; message: string };

export type SaveOutcome =
  | { kind: "success"; snackbar: string }
  | { kind: "partial"; title: string; results: SavePart[] };

/**
 * Combine the monitor and rules outcomes (requirements.md monitor-forms §4 "Outcomes"): both succeed → one snackbar with
 * the messages joined by ' , ' and the form closes; any failure → a dialog listing each result
 * while the form stays open.
 */
export function combineSaveOutcome(parts: SavePart[]): SaveOutcome {
  if (parts.every((p) => p.ok)) return { kind: "success", snackbar: parts.map((p) => p.message).join(" , ") };
  return { kind: "partial", title: MONITOR_MESSAGES.errorSavingBoth, results: parts };
}

/** The messages of each part for a create or an edit (requirements.md monitor-forms §8). */
export function partMessage(part: "monitor" | "rules", ok: boolean, creating: boolean): string {
  const M = MONITOR_MESSAGES;
  if (part === "rules") return ok ? M.rulesSaved : M.errorSavingRules;
  if (creating) return ok ? M.created : M.errorCreating;
  return ok ? M.saved : M.errorSaving;
}
