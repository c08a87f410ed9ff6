// Timers and sizes the specs name, in one place (docs/conventions.md "Web").

/** Snackbars hide after 3300 ms (requirements.md monitor-forms §8, requirements.md settings §9). */
export const SNACKBAR_MS = 3300;
/** Monitor save and delete snackbars in the admin pages hide after 3000 ms (requirements.md settings §9). */
export const MONITOR_SNACKBAR_MS = 3000;
/** Active monitor count refetch (requirements.md settings §9). */
export const ACTIVE_MONITOR_COUNT_POLL_MS = 60_000;
/** Alert viewing window refetch (requirements.md settings §9). */
export const ALERT_WINDOW_POLL_MS = 10_000;
/** The home page's plant overview refetch (issue 18 §3: "it refreshes itself"). */
export const PLANT_OVERVIEW_POLL_MS = 30_000;
/** Side drawer (requirements.md monitor-forms §2 "Other widgets"). */
export const DRAWER = { width: 950, enterMs: 500, exitMs: 420 } as const;
export const MONITOR_DETAILS_DRAWER_WIDTH = 750;
export const LINE_EDITOR_DRAWER_WIDTH = 750;
export const FEEDER_DRAWER_WIDTH = 700;
export const GRID_ROW_HEIGHT = 65;
/**
 * Rows a page in the Settings grids that page (Microsoft Teams, ETQ Reliance, Users, monitors):
 * the first of SettingsGrid's 25/50/100. The spec names no page size (docs/spec-deviations.md).
 */
export const SETTINGS_GRID_PAGE_SIZE = 25;

/** A running CSV upload's progress refetch (issue 32 §4: "show rows read and stored"). */
export const CSV_UPLOAD_PROGRESS_POLL_MS = 1_000;

/** The interface's colours (issue 32 §4): the system's choice by default, or one chosen in the user menu. */
export const APPEARANCES = ["system", "light", "dark"] as const;
export type TAppearance = (typeof APPEARANCES)[number];
export const APPEARANCE_TEXTS = {
  heading: "Appearance",
  options: { system: "Follow the system", light: "Light", dark: "Dark" },
} as const satisfies { heading: string; options: Record<TAppearance, string> };
