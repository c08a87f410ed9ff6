// The line overview's words (not in the spec): the page, its alerts and monitors sections and the
// monitors table. Scores over time speaks EVALUATION_SERIES_MESSAGES; the alerts ALERT_TEXTS.

export const LINE_OVERVIEW_TEXTS = {
  /** The heading while the line loads. */
  line: "Line",
  backToLines: "Back to the lines",
  notFoundText: "This line does not exist, or it belongs to another customer.",
  alerts: "Alerts",
  alertsWindow: (days: number) => `(last ${days} days)`,
  noAlerts: "No alerts for this line in the alert viewing window.",
  monitors: "Monitors",
  newMvdMonitor: "New MVD monitor",
  newSvdMonitor: "New SVD monitor",
  noMonitors: "No monitors watch this line yet.",
  columns: {
    monitor: "Monitor",
    type: "Type",
    active: "Active",
    every: "Every",
    lastState: "Last state",
    lastEvaluated: (timeZone: string) => `Last evaluated (${timeZone})`,
    nextRun: "Next run",
  },
  yes: "Yes",
  no: "No",
  everyMinutes: (minutes: number) => `${minutes} min`,
  /** A monitor's last state as its chip says it. */
  state: { OK: "OK", BREACH: "BREACH", NO_DATA: "NO DATA", ERROR: "ERROR" },
  notEvaluated: "Not evaluated yet",
} as const;
