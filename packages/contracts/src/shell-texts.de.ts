import type { Translation } from "./i18n.js";
import type { SHELL_TEXTS } from "./shell-texts.js";

export const SHELL_TEXTS_DE = {
  productName: "Linewatch",
  plant: "Werk",
  line: "Linie",
  home: "Start",
  settings: "Einstellungen",
  userMenu: "Benutzermenü",
  location: (name: string) => `Standort: ${name}`,
  unassigned: "Nicht zugeordnet",
  customer: "Kunde",
  actForCustomer: "Für Kunden handeln",
  loadingOption: "Wird geladen …",
  nowActingFor: (customer: string) => `Sie handeln jetzt für ${customer}`,
  featureFlags: "Funktionsschalter",
  auditLog: "Änderungsprotokoll",
  changePassword: "Passwort ändern",
  apiTokens: "API-Tokens",
  signOut: "Abmelden",
  loading: "Wird geladen",
  loadingPage: "Seite wird geladen",
  retry: "Erneut versuchen",
  close: "Schließen",
  pageNotFound: "Seite nicht gefunden",
} as const satisfies Translation<typeof SHELL_TEXTS>;
