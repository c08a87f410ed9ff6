import type { Translation } from "./i18n.js";
import {
  ageText,
  PLANT_OVERVIEW_HOURS,
  type PLANT_OVERVIEW_TEXTS,
  type TOverviewOpenAlerts,
} from "./plant-overview.js";

const count = (n: number) => n.toLocaleString("de-DE");
const typeLabel = { svd: "SVD", mvd: "MVD", cap: "CAP", no_data: "Keine Daten" } as const;
const ageUnits = { min: "Min.", h: "Std.", d: "Tg." } as const;

export const PLANT_OVERVIEW_TEXTS_DE = {
  typeLabel,
  stateLabel: { OK: "OK", BREACH: "Grenzverletzung", NO_DATA: "Keine Daten", ERROR: "Fehler" },
  notEvaluated: "Noch nicht ausgewertet",
  inactive: "inaktiv",
  ageUnits,
  /** "3 SVD · älteste seit 2 Std." */
  openAlerts: (g: Pick<TOverviewOpenAlerts, "type" | "count" | "oldestOpenedAt">, now: Date) =>
    `${g.count} ${typeLabel[g.type]} · ältester seit ${ageText(g.oldestOpenedAt, now, ageUnits)}`,
  noOpenAlerts: "Keine offenen Alarme",
  noMonitors: "Keine Überwachungen",
  monitorsLabel: (line: string) => `Überwachungen von ${line}: letzte Zustände`,
  recordsLabel: (total: number) =>
    `${count(total)} Datensätze in den letzten ${PLANT_OVERVIEW_HOURS} Stunden`,
  newestAlerts: "Neueste Alarme",
  noAlerts: "In diesem Werk gibt es noch keine Alarme.",
  lines: "Linien",
  noPlants: "Für diesen Kunden ist noch kein Werk eingerichtet.",
  askAdministrator: "Bitten Sie einen Administrator Ihres Unternehmens, ein Werk einzurichten.",
  noLines: "Dieses Werk hat keine Linien.",
  noDataYet: "Noch keine Daten",
  lastData: "Letzte Daten",
  status: { ALERTING: "Alarm", OK: "OK", NO_DATA_YET: "Noch keine Daten" },
  timesIn: (timeZone: string) => `Zeiten in ${timeZone}`,
  newLine: "Neu",
  updated: (at: string) => `Aktualisiert ${at}`,
  refreshFailed: (at: string) =>
    `Die Übersicht konnte nicht aktualisiert werden; sie zeigt den Stand von ${at}.`,
  ago: (age: string) => `vor ${age}`,
  hourRecords: (hour: string, n: number) => `${hour}: ${count(n)} Datensätze`,
  perDay: (total: number) => `${count(total)} / ${PLANT_OVERVIEW_HOURS} Std.`,
} as const satisfies Translation<typeof PLANT_OVERVIEW_TEXTS>;
