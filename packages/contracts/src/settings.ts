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

/** The side menu's words (requirements.md settings §2.1): its groups' titles and its sections' names. */
export const SETTINGS_MENU_TEXTS = {
  groups: {
    anomalyMonitors: "Anomaly Monitors",
    capabilityMetrics: "Capability Metrics",
    dataManagement: "Data Management",
    integrations: "Integrations",
    users: "Users",
  },
  sections: {
    SVD_ANOMALY_MONITORS: "Single-Variate (SVD)",
    MVD_ANOMALY_MONITORS: "Multi-Variate (MVD)",
    SPC_ALERT: "Alerts",
    SPC_LIMITS: "Limits",
    DATA_SOURCES: "Data Sources",
    SIGNAL_MANAGEMENT: "Signal Management",
    LINE_MANAGEMENT: "Line Management",
    PLANTS: PLANT_TEXTS.menuItem,
    DATA_RETENTION: RETENTION_TEXTS.menuItem,
    MS_TEAMS: "Microsoft Teams",
    ETQ_RELIANCE: "ETQ Reliance",
    USER_MANAGEMENT: "Users",
  },
} as const satisfies { groups: Record<string, string>; sections: Record<TSettingsSection, string> };

type TSettingsMenuTexts = {
  groups: { readonly [K in keyof (typeof SETTINGS_MENU_TEXTS)["groups"]]: string };
  sections: Record<TSettingsSection, string>;
};

/**
 * The Settings side menu for a user (requirements.md settings §2.1): groups and items in order, with the
 * role and flag rules applied; administrators also get Plants (issue 28 §1) and Data retention (issue 31 §2) after the spec's items.
 */
export function settingsMenu(opts: {
  isAdministrator: boolean;
  flags: Pick<TFeatureFlags, "mvdMonitorCreation" | "etqIntegration">;
  etqOverride: boolean;
  /** The menu's words in the interface's language (default: English, the spec's). */
  texts?: TSettingsMenuTexts;
}): TSettingsMenuGroup[] {
  const { groups: G, sections: S } = opts.texts ?? SETTINGS_MENU_TEXTS;
  const item = <T extends TSettingsSection>(section: T) => ({ section, label: S[section] });
  const groups: TSettingsMenuGroup[] = [
    {
      title: G.anomalyMonitors,
      items: [
        item("SVD_ANOMALY_MONITORS"),
        ...(opts.flags.mvdMonitorCreation ? [item("MVD_ANOMALY_MONITORS")] : []),
      ],
    },
    { title: G.capabilityMetrics, items: [item("SPC_ALERT"), item("SPC_LIMITS")] },
    {
      title: G.dataManagement,
      items: [
        ...(opts.isAdministrator ? [item("DATA_SOURCES")] : []),
        item("SIGNAL_MANAGEMENT"),
        item("LINE_MANAGEMENT"),
        // Not in the spec (issue 28 §1): after the spec's items, which stay as they are.
        ...(opts.isAdministrator ? [item("PLANTS")] : []),
        // Not in the spec either (issue 31 §2): how long the customer's data is kept.
        ...(opts.isAdministrator ? [item("DATA_RETENTION")] : []),
      ],
    },
    {
      title: G.integrations,
      items: [
        item("MS_TEAMS"),
        ...(opts.flags.etqIntegration || opts.etqOverride ? [item("ETQ_RELIANCE")] : []),
      ],
    },
  ];
  if (opts.isAdministrator) groups.push({ title: G.users, items: [item("USER_MANAGEMENT")] });
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
