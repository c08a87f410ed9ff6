import type { Translation } from "./i18n.js";
import type { LINE_OVERVIEW_TEXTS } from "./line-overview-texts.js";

export const LINE_OVERVIEW_TEXTS_DE = {
  line: "Linie",
  backToLines: "Zurück zu den Linien",
  notFoundText: "Diese Linie gibt es nicht, oder sie gehört einem anderen Kunden.",
  alerts: "Alarme",
  alertsWindow: (days: number) => `(letzte ${days} ${days === 1 ? "Tag" : "Tage"})`,
  noAlerts: "Keine Alarme dieser Linie im Anzeigezeitraum für Alarme.",
  monitors: "Überwachungen",
  newMvdMonitor: "Neue MVD-Überwachung",
  newSvdMonitor: "Neue SVD-Überwachung",
  noMonitors: "Diese Linie wird noch von keiner Überwachung beobachtet.",
  columns: {
    monitor: "Überwachung",
    type: "Typ",
    active: "Aktiv",
    every: "Alle",
    lastState: "Letzter Zustand",
    lastEvaluated: (timeZone: string) => `Zuletzt ausgewertet (${timeZone})`,
    nextRun: "Nächster Lauf",
  },
  yes: "Ja",
  no: "Nein",
  everyMinutes: (minutes: number) => `${minutes} Min.`,
  state: { OK: "OK", BREACH: "GRENZVERLETZUNG", NO_DATA: "KEINE DATEN", ERROR: "FEHLER" },
  notEvaluated: "Noch nicht ausgewertet",
} as const satisfies Translation<typeof LINE_OVERVIEW_TEXTS>;
