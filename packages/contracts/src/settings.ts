import { z } from "zod";
import type { TFeatureFlags } from "./feature-flags.js";
import { PLANT_TEXTS } from "./plant-texts.js";
import { RETENTION_TEXTS } from "./retention-texts.js";

/** Settings section identifiers (requirements.md settings §2). */
export const SETTINGS_SECTIONS = [
  "DATA_RETENTION",
  "DATA_SOURCES",
  "ETQ_RELIANCE",
  "LINE_MANAGEMENT",
  "MS_TEAMS",
  "MVD_ANOMALY_MONITORS",
  "PLANTS",
  "SIGNAL_MANAGEMENT",
  "SPC_ALERT",
  "SPC_LIMITS",
  "SVD_ANOMALY_MONITORS",
  "USER_MANAGEMENT",
] as const;
export const ZSettingsSection = z.enum(SETTINGS_SECTIONS);
export type TSettingsSection = z.infer<typeof ZSettingsSection>;
export const DEFAULT_SETTINGS_SECTION: TSettingsSection = "SPC_ALERT";

/** A section's name, as ZSettingsSection checks it, without zod (the web's Settings page: issue #17). */
export const isSettingsSection = (value: unknown): value is TSettingsSection =>
  (SETTINGS_SECTIONS as readonly unknown[]).includes(value);

export type TSettingsMenuGroup = { title: string; items: { section: TSettingsSection; label: string }[] };

/**
 * The Settings side menu for a user (requirements.md settings §2.1): groups and items in order, with the
 * role and flag rules applied; administrators also get Plants (issue 28 §1) and Data retention (issue 31 §2) after the spec's items.
 */
export function settingsMenu(opts: {
  isAdministrator: boolean;
  flags: Pick<TFeatureFlags, "mvdMonitorCreation" | "etqIntegration">;
  etqOverride: boolean;
}): TSettingsMenuGroup[] {
  const groups: TSettingsMenuGroup[] = [
    {
      title: "Anomaly Monitors",
      items: [
        { section: "SVD_ANOMALY_MONITORS", label: "Single-Variate (SVD)" },
        ...(opts.flags.mvdMonitorCreation
          ? [{ section: "MVD_ANOMALY_MONITORS" as const, label: "Multi-Variate (MVD)" }]
          : []),
      ],
    },
    {
      title: "Capability Metrics",
      items: [
        { section: "SPC_ALERT", label: "Alerts" },
        { section: "SPC_LIMITS", label: "Limits" },
      ],
    },
    {
      title: "Data Management",
      items: [
        ...(opts.isAdministrator ? [{ section: "DATA_SOURCES" as const, label: "Data Sources" }] : []),
        { section: "SIGNAL_MANAGEMENT", label: "Signal Management" },
        { section: "LINE_MANAGEMENT", label: "Line Management" },
        // Not in the spec (issue 28 §1): after the spec's items, which stay as they are.
        ...(opts.isAdministrator ? [{ section: "PLANTS" as const, label: PLANT_TEXTS.menuItem }] : []),
        // Not in the spec either (issue 31 §2): how long the customer's data is kept.
        ...(opts.isAdministrator
          ? [{ section: "DATA_RETENTION" as const, label: RETENTION_TEXTS.menuItem }]
          : []),
      ],
    },
    {
      title: "Integrations",
      items: [
        { section: "MS_TEAMS", label: "Microsoft Teams" },
        ...(opts.flags.etqIntegration || opts.etqOverride
          ? [{ section: "ETQ_RELIANCE" as const, label: "ETQ Reliance" }]
          : []),
      ],
    },
  ];
  if (opts.isAdministrator)
    groups.push({ title: "Users", items: [{ section: "USER_MANAGEMENT", label: "Users" }] });
  return groups;
}

export const SETTINGS_MESSAGES = {
  notAvailable: "This section is not available yet",
  /** The page's title and its side menu's name. */
  title: "Settings",
  /** The side menu as a drawer below 900 px (issue 32 §1). */
  sectionsMenu: "Settings sections",
} as const;

/** Texts the Settings sections share (requirements.md settings §8 "Capability", §2.4). */
export const SETTINGS_KIT_MESSAGES = {
  errorLoadingData: "Error Loading Data",
  saving: "Saving...",
  // requirements.md settings §2.9 (feeder lines), the discard dialog every section with unsaved edits uses
  discardTitle: "Discard Changes?",
  discardText: "You have unsaved changes, do you want to discard?",
  discardExit: "Exit",
  discardContinue: "Continue Editing",
  // A grid row edited in place (Microsoft Teams' Edit, Save, Cancel and Delete; requirements.md settings §2.2, §4 "Teams row")
  edit: "Edit",
  save: "Save",
  cancel: "Cancel",
  delete: "Delete",
  /** Marks a row whose edits wait for the section's Save Changes (requirements.md settings §4 "SPC limits"). */
  unsaved: "Unsaved",
  // A row that expands: Cap Limits' signal into its models (requirements.md settings §2.5)
  seeModels: "See models",
  hideModels: "Hide models",
} as const;
