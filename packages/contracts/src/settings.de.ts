import type { Translation } from "./i18n.js";
import type { SETTINGS_KIT_MESSAGES, SETTINGS_MENU_TEXTS, SETTINGS_MESSAGES } from "./settings.js";

export const SETTINGS_MENU_TEXTS_DE = {
  groups: {
    anomalyMonitors: "Anomalie-Überwachungen",
    capabilityMetrics: "Prozessfähigkeit",
    dataManagement: "Datenverwaltung",
    integrations: "Anbindungen",
    users: "Benutzer",
  },
  sections: {
    SVD_ANOMALY_MONITORS: "Univariat (SVD)",
    MVD_ANOMALY_MONITORS: "Multivariat (MVD)",
    SPC_ALERT: "Alarme",
    SPC_LIMITS: "Grenzwerte",
    DATA_SOURCES: "Datenquellen",
    SIGNAL_MANAGEMENT: "Merkmalsverwaltung",
    LINE_MANAGEMENT: "Linienverwaltung",
    PLANTS: "Werke",
    DATA_RETENTION: "Aufbewahrung der Daten",
    MS_TEAMS: "Microsoft Teams",
    ETQ_RELIANCE: "ETQ Reliance",
    USER_MANAGEMENT: "Benutzer",
  },
} as const satisfies Translation<typeof SETTINGS_MENU_TEXTS>;

export const SETTINGS_MESSAGES_DE = {
  notAvailable: "Dieser Bereich ist noch nicht verfügbar",
  title: "Einstellungen",
  sectionsMenu: "Bereiche der Einstellungen",
} as const satisfies Translation<typeof SETTINGS_MESSAGES>;

export const SETTINGS_KIT_MESSAGES_DE = {
  errorLoadingData: "Fehler beim Laden der Daten",
  saving: "Wird gespeichert …",
  discardTitle: "Änderungen verwerfen?",
  discardText: "Sie haben ungespeicherte Änderungen. Möchten Sie sie verwerfen?",
  discardExit: "Verwerfen",
  discardContinue: "Weiter bearbeiten",
  edit: "Bearbeiten",
  save: "Speichern",
  cancel: "Abbrechen",
  delete: "Löschen",
  unsaved: "Nicht gespeichert",
  seeModels: "Modelle anzeigen",
  hideModels: "Modelle ausblenden",
} as const satisfies Translation<typeof SETTINGS_KIT_MESSAGES>;
