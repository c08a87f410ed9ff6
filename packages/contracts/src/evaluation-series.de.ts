import { EVALUATION_SERIES_MAX_DAYS, type EVALUATION_SERIES_MESSAGES } from "./evaluation-series.js";
import type { Translation } from "./i18n.js";

export const EVALUATION_SERIES_MESSAGES_DE = {
  title: "Kennwerte im Zeitverlauf",
  period: "Zeitraum",
  presets: { day: "Letzte 24 Stunden", week: "Letzte 7 Tage", month: "Letzte 30 Tage" },
  order: "Von muss vor Bis liegen",
  tooLong: `Der Zeitraum darf höchstens ${EVALUATION_SERIES_MAX_DAYS} Tage lang sein`,
  loadError: "Fehler beim Laden der Kennwerte im Zeitverlauf",
  noMonitors: "Diese Linie wird noch von keiner Überwachung beobachtet.",
  empty: "Keine Auswertungen in diesem Zeitraum",
  chartLabel: (monitor: string) => `Kennwerte von ${monitor} im Zeitverlauf`,
  breach: "Grenzverletzung",
  inactive: "inaktiv",
  capability: "Prozessfähigkeit (I-MR)",
  capabilityFor: (signal: string) => `Prozessfähigkeit (I-MR) von ${signal} in diesem Zeitraum`,
  decimated: (shown: number, n: number) =>
    `${shown} von ${n} Auswertungen gezeichnet: der niedrigste und der höchste Kennwert jedes Abschnitts, Grenzverletzungen gesondert erhalten.`,
  caption: (n: number, breaches: number, alerts: number, timeZone: string) =>
    `${n} ${n === 1 ? "Auswertung" : "Auswertungen"}, ${breaches} ${breaches === 1 ? "Grenzverletzung" : "Grenzverletzungen"} markiert, ${alerts} ${alerts === 1 ? "Alarm" : "Alarme"} schattiert; Zeiten in ${timeZone}.`,
} as const satisfies Translation<typeof EVALUATION_SERIES_MESSAGES>;
