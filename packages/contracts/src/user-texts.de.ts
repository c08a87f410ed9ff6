import type { Translation } from "./i18n.js";
import type { PASSWORD_LINK_TEXTS } from "./user-texts.js";

export const PASSWORD_LINK_TEXTS_DE = {
  action: "Passwort-Link senden",
  actionLabel: (email: string) => `Passwort-Link an ${email} senden`,
  confirmTitle: (email: string) => `Einen Passwort-Link an ${email} senden?`,
  confirmBody:
    "Mit dem einmaligen Link legt der Benutzer ein neues Passwort fest. Das Erstellen beendet sofort alle seine Sitzungen: Er wird überall abgemeldet.",
  confirm: "Link erstellen",
  cancel: "Abbrechen",
  note: "Senden Sie diesen Link an den Benutzer, damit er ein neues Passwort festlegt. Er wird nicht noch einmal angezeigt und läuft in 7 Tagen ab.",
  created: "Passwort-Link erstellt; die Sitzungen des Benutzers sind beendet",
  error: "Fehler beim Erstellen des Passwort-Links",
  providerStaffOnly:
    "Nur Mitarbeiter des Anbieters können Mitarbeitern des Anbieters einen Passwort-Link senden",
} as const satisfies Translation<typeof PASSWORD_LINK_TEXTS>;
