// The line editor's form in plain functions (requirements.md settings §5 "Line editor", "Friendly name
// (line)"), apart from lines.form.ts so that its contract schema (zod) loads with the editor, not
// with the Line Management grid (issue #17).
import {
  LINE_MANAGEMENT_MESSAGES as M,
  type TFeatureFlags,
  type TLine,
  type TLinePatch,
  ZLineFriendlyName,
} from "@linewatch/contracts";
import { parseThresholdText, validateAlertFilterText, validateThresholdText } from "./lines.form";

/** The line editor's fields as typed. */
export type LineEditorValues = {
  active: boolean;
  noDataAlert: string;
  alertDisplayed: string;
  friendlyName: string;
  excludedPartIds: string[];
  excludedModelNumbers: string[];
};
export type LineEditorErrors = Partial<Record<"noDataAlert" | "alertDisplayed" | "friendlyName", string>>;
export type LineEditorFlags = Pick<TFeatureFlags, "partMarriage" | "capExclusion" | "feederLineAssignment">;

export const editorValuesOf = (line: TLine): LineEditorValues => ({
  active: line.active,
  noDataAlert: line.ingestionThresholdHours == null ? "" : String(line.ingestionThresholdHours),
  alertDisplayed: String(line.alertViewingWindowDays),
  friendlyName: line.friendlyName ?? "",
  excludedPartIds: [...line.excludedPartIds],
  excludedModelNumbers: [...line.excludedModelNumbers],
});

/** The editor's messages (requirements.md settings §5 "Line editor", "Friendly name (line)"). */
export function validateEditor(v: LineEditorValues, flags: LineEditorFlags): LineEditorErrors {
  const e: LineEditorErrors = {};
  if (flags.partMarriage) {
    const hours = v.noDataAlert.trim() === "" ? M.required : validateThresholdText(v.noDataAlert);
    if (hours) e.noDataAlert = hours;
    const days = v.alertDisplayed.trim() === "" ? M.required : validateAlertFilterText(v.alertDisplayed);
    if (days) e.alertDisplayed = days;
  }
  const name = ZLineFriendlyName.safeParse(v.friendlyName);
  if (!name.success) e.friendlyName = name.error.issues[0]?.message;
  return e;
}

const sameSet = (a: readonly string[], b: readonly string[]) =>
  a.length === b.length && a.every((x) => b.includes(x));

/**
 * What Save Changes sends: only the changed fields (requirements.md settings §5 "Line editor"). The alert
 * window has its own call (§7), so it comes apart from the line's PATCH.
 */
export function editorChanges(
  line: TLine,
  v: LineEditorValues,
  feederLineIds: readonly string[],
  flags: LineEditorFlags,
): { patch: TLinePatch; alertViewingWindowDays?: number } {
  const patch: TLinePatch = {};
  const before = editorValuesOf(line);
  let alertViewingWindowDays: number | undefined;
  if (flags.partMarriage) {
    if (v.active !== before.active) patch.active = v.active;
    if (v.noDataAlert.trim() !== before.noDataAlert)
      patch.ingestionThresholdHours = parseThresholdText(v.noDataAlert);
    if (v.alertDisplayed.trim() !== before.alertDisplayed)
      alertViewingWindowDays = Number(v.alertDisplayed.trim());
  }
  if (v.friendlyName !== before.friendlyName)
    patch.friendlyName = v.friendlyName === "" ? null : v.friendlyName;
  if (flags.feederLineAssignment && !sameSet(feederLineIds, line.feederLineIds))
    patch.feederLineIds = [...feederLineIds];
  if (flags.capExclusion) {
    if (!sameSet(v.excludedPartIds, before.excludedPartIds)) patch.excludedPartIds = v.excludedPartIds;
    if (!sameSet(v.excludedModelNumbers, before.excludedModelNumbers))
      patch.excludedModelNumbers = v.excludedModelNumbers;
  }
  return { patch, ...(alertViewingWindowDays === undefined ? {} : { alertViewingWindowDays }) };
}

/**
 * Save Changes is enabled when the form is valid and changed, feeder lines included (spec settings
 * §2.9 "or when feeder lines changed"; a form with an invalid field is not sent either way).
 */
export function canSaveEditor(
  line: TLine,
  v: LineEditorValues,
  feederLineIds: readonly string[],
  flags: LineEditorFlags,
): boolean {
  const changes = editorChanges(line, v, feederLineIds, flags);
  const changed = Object.keys(changes.patch).length > 0 || changes.alertViewingWindowDays !== undefined;
  return changed && Object.keys(validateEditor(v, flags)).length === 0;
}
