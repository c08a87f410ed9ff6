import {
  ALERT_CAUSE_MAX,
  ALERT_COMMENT_MAX,
  type ALERT_MESSAGES,
  type NO_DATA_ALERT_TEXTS,
} from "./alerts.js";
import type { Translation } from "./i18n.js";

/** ALERT_NO_CAUSE in German (a cause is free text: the German words are stored as typed). */
const NO_CAUSE_DE = "Keine Ursache angegeben";

export const NO_DATA_ALERT_TEXTS_DE = {
  title: "Keine Daten",
  summary: (hoursSince: number, threshold: number) =>
    `Seit ${Math.floor(hoursSince)} Std. keine Datensätze (Alarm bei fehlenden Daten nach ${threshold} Std.)`,
} as const satisfies Translation<typeof NO_DATA_ALERT_TEXTS>;

export const ALERT_MESSAGES_DE = {
  notFound: "Alarm nicht gefunden",
  alreadyResolved: "Dieser Alarm ist bereits abgeschlossen",
  alreadyAcknowledged: "Dieser Alarm ist bereits quittiert",
  commentRequired: "Ein Kommentar ist erforderlich",
  commentTooLong: `Der Kommentar darf höchstens ${ALERT_COMMENT_MAX} Zeichen lang sein`,
  causeTooLong: `Die Ursache darf höchstens ${ALERT_CAUSE_MAX} Zeichen lang sein`,
  causeRequired: `Wählen oder beschreiben Sie eine Ursache, oder wählen Sie „${NO_CAUSE_DE}“`,
  evaluationNotFound: "Auswertung nicht gefunden",
  valuesNotForMvd:
    "Eine MVD-Auswertung hält ihre auffälligsten Zeilen in ihren Details fest; ihre Werte werden nicht ausgeliefert",
  acknowledged: "Alarm quittiert",
  commented: "Kommentar hinzugefügt",
  resolved: "Alarm abgeschlossen",
} as const satisfies Translation<typeof ALERT_MESSAGES>;

export { NO_CAUSE_DE };
