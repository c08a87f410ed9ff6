import { z } from "zod";
import { ZId } from "./common.js";
import { ZEvaluationState } from "./domain.js";

/** Settings → Capability Metrics → Alerts (requirements.md settings §2.4, §4, §8, §9). */
export const CAP_ALERTS_MESSAGES = {
  title: "Cap Alerts",
  lineLabel: "Line",
  note: "Table only shows signals with configured limits",
  empty: "No signals with configured limits found",
  emptyFiltered: "Filter returns no result",
  saveError: "Error saving configuration: An error occurred while saving the configuration",
  saveErrorTitle: "Error saving configuration",
  ok: "Ok",
  rulesTitle: "Cap Alert Rules",
  save: "Save",
  close: "Close",
  edit: "Edit",
  search: "Search stations and signals",
  noLimits: "This signal has no limits configured: its cap monitor cannot evaluate",
  recordLimits:
    "No SPC limits configured: its cap monitor judges capability against the limits that arrive with its records (its limit signals)",
  noLines: "No lines exist for this plant.",
  columns: {
    monitor: "Monitor",
    station: "Station",
    signal: "Signal",
    alertRules: "Alert Rules",
    excludeChallengeParts: "Exclude Challenge Parts",
    excludeModelNumbers: "Exclude Model Numbers",
    lastState: "Last state",
    latestAlert: "Latest alert",
    opCount: "Op count",
    runRules: "Control rules",
  },
  runRulesLabel: (signal: string) => `Control rules for ${signal}`,
  opCountLabel: (signal: string) => `Op count for ${signal}`,
  monitorLabel: (signal: string) => `Monitor ${signal}`,
  excludePartsLabel: (signal: string) => `Exclude Challenge Parts for ${signal}`,
  excludeModelsLabel: (signal: string) => `Exclude Model Numbers for ${signal}`,
  editRulesLabel: (signal: string) => `Edit alert rules of ${signal}`,
  openAlert: "Open",
  ppk: (ppk: number | null) => (ppk == null ? "Ppk –" : `Ppk ${ppk.toFixed(2)}`),
  notEvaluated: "Not evaluated yet",
} as const;

/** The cap rules modal's size (requirements.md settings §9: 850 by 450). */
export const CAP_RULES_MODAL = { width: 850, height: 450 } as const;

/** Where each cap monitor of a line stands: its latest evaluation's Ppk and its latest alert. */
export const ZCapMonitorStatus = z.object({
  monitorId: ZId,
  lastState: ZEvaluationState.nullable(),
  ppk: z.number().nullable(),
  latestAlertId: ZId.nullable(),
});
export type TCapMonitorStatus = z.infer<typeof ZCapMonitorStatus>;
export const ZCapMonitorStatusList = z.array(ZCapMonitorStatus);
