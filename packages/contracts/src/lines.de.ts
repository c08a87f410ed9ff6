import type { Translation } from "./i18n.js";
import type { LINE_MESSAGES } from "./lines.js";

export const LINE_MESSAGES_DE = {
  notFound: "Die Linie wurde nicht gefunden",
  noIngestion: "Kein Datenempfang",
  monitorStoppedWithLine: "Ja (Linie inaktiv: angehalten)",
  inactiveOverview:
    "Diese Linie ist inaktiv: Ihre Überwachungen sind angehalten und werten nichts aus, bis die Linie unter Einstellungen → Linienverwaltung wieder aktiviert wird. Ihre Datensätze werden weiter gespeichert.",
} as const satisfies Translation<typeof LINE_MESSAGES>;
