import type { CAPABILITY_MESSAGES } from "./capability.js";
import type { Translation } from "./i18n.js";

export const CAPABILITY_MESSAGES_DE = {
  open: "Prozessfähigkeit",
  openFor: (signal: string) => `Prozessfähigkeit von ${signal} öffnen`,
  title: (signal: string) => `Prozessfähigkeit von ${signal}`,
  close: "Schließen",
  from: "Von",
  to: "Bis",
  timeZone: (timeZone: string) => `Werkszeit (${timeZone})`,
  presets: { day: "Letzte 24 Stunden", week: "Letzte 7 Tage", month: "Letzte 30 Tage" },
  order: "Von muss vor Bis liegen",
  tooLong: (seconds: number) =>
    `Die Prozessfähigkeitsansicht brauchte mehr als ihre ${seconds} s Rechenzeit und wurde abgebrochen: Wählen Sie einen kürzeren Zeitraum`,
  loading: "Prozessfähigkeitsansicht wird geladen",
  empty: "Keine Datensätze in diesem Zeitraum",
  loadError: (detail: string) => `Fehler beim Laden der Prozessfähigkeitsansicht: ${detail}`,
  retry: "Erneut versuchen",
  individuals: "Einzelwerte (I)",
  movingRange: "Gleitende Spannweite (MR)",
  histogram: "Histogramm gegen die Toleranzgrenzen",
  table: "Prozessfähigkeit je Modellnummer (95-%-Vertrauensbereiche)",
  columns: { model: "Modell", n: "n", cp: "Cp", cpk: "Cpk", pp: "Pp", ppk: "Ppk", note: "Hinweis" },
  allModels: "Alle Modelle",
  noModel: "Keine Modellnummer",
  truncated: (n: number) =>
    `Mehr Datensätze, als die Ansicht liest: Die neuesten ${n} des Zeitraums werden gezeigt.`,
  decimated: (shown: number, n: number) =>
    `${shown} von ${n} Punkten gezeichnet (der niedrigste und der höchste jedes Abschnitts und jede Regelverletzung); die Statistik verwendet alle ${n} Datensätze.`,
  ruleCounts: (counts: string) => `Regelverletzungen: ${counts}`,
  model: "Modellnummer",
  alertTitle: "Die Auswertung des Alarms",
  alertFigures: (f: { n: number; ppk: string; bound: string; level: string; target: string }) =>
    `Ppk ${f.ppk} über die ${f.n} beurteilten Datensätze; seine obere Vertrauensgrenze ${f.bound} (zum Niveau ${f.level}) gegen den Zielwert ${f.target}.`,
  alertWhy:
    "Ein Alarm beurteilt die obere Vertrauensgrenze des Ppk, nicht den Ppk selbst: Er wird nur ausgelöst, wenn selbst die Grenze unter dem Zielwert liegt, damit der Zufall weniger Datensätze ihn nicht auslöst. Die Ansicht zeigt den Ppk mit seinem 95-%-Vertrauensbereich über die Datensätze des gewählten Zeitraums und Modells; aus dem Alarm geöffnet, sind das die Datensätze, die der Alarm beurteilt hat.",
  alertControl: (hits: number) =>
    `${hits} ${hits === 1 ? "Punkt verletzte" : "Punkte verletzten"} eine Regel der Regelkarte.`,
  alertNoPeriod:
    "Diese Auswertung hat den Zeitraum ihrer Datensätze nicht festgehalten (sie ist älter als die Verknüpfung dieser Ansicht): Die Ansicht zeigt die 7 Tage davor.",
  rule: (rule: number) => `Regel ${rule}`,
  noSpecLimits: "Keine UTG oder OTG",
  specLimitsDiffer: "UTG oder OTG unterscheidet sich zwischen Datensätzen (eine Formel)",
  tooFew: "Weniger als 2 Werte",
  constant: "Konstante Werte (σ = 0)",
} as const satisfies Translation<typeof CAPABILITY_MESSAGES>;
