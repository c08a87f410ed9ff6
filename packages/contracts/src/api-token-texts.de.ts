import type { API_TOKEN_MESSAGES, API_TOKEN_TEXTS } from "./api-token-texts.js";
import type { Translation } from "./i18n.js";

export const API_TOKEN_MESSAGES_DE = {
  created: "API-Token erstellt",
  revoked: "API-Token widerrufen",
  notFound: "API-Token nicht gefunden",
  invalid: "Ungültiges, abgelaufenes oder widerrufenes API-Token",
  readOnly: "Dieses API-Token darf nur lesen: Änderungen sind damit nicht möglich",
  sessionOnly: "API-Tokens werden hier nicht angenommen: Melden Sie sich dafür an",
  tooMany: (max: number) =>
    `Sie haben ${max} API-Tokens: Widerrufen Sie eines, bevor Sie ein weiteres erstellen`,
} as const satisfies Translation<typeof API_TOKEN_MESSAGES>;

export const API_TOKEN_TEXTS_DE = {
  title: "API-Tokens",
  intro:
    "Mit persönlichen Tokens rufen Skripte die Linewatch-API in Ihrem Namen auf, mit dem Header Authorization: Bearer und dem Token dahinter. Ein Token gilt, bis es abläuft oder Sie es widerrufen.",
  columns: {
    name: "Name",
    scope: "Umfang",
    created: "Erstellt",
    expires: "Läuft ab",
    lastUsed: "Zuletzt verwendet",
    actions: "Aktionen",
  },
  scopes: { read: "Nur lesen", role: "Ihre Rolle" },
  never: "Nie",
  expired: "Abgelaufen",
  noTokens: "Noch keine API-Tokens",
  createHeading: "Neues Token",
  name: "Name",
  expiresInDays: "Läuft ab in (Tagen)",
  expiresHelp: (max: number) => `1 bis ${max} Tage`,
  scope: "Umfang",
  create: "Token erstellen",
  createdHeading: "Ihr neues Token",
  shownOnce: "Kopieren Sie das Token jetzt: Es wird nicht noch einmal angezeigt.",
  tokenLabel: "Token",
  copy: "Token kopieren",
  copied: "Token kopiert",
  copyBlocked: "Kopieren ist hier gesperrt: Markieren Sie das Token und kopieren Sie es von Hand.",
  revoke: "Widerrufen",
  revokeLabel: (name: string) => `${name} widerrufen`,
  revokeConfirm: (name: string) =>
    `Das API-Token „${name}“ widerrufen? Skripte, die es verwenden, funktionieren sofort nicht mehr.`,
  cancel: "Abbrechen",
  close: "Schließen",
  loadError: "Fehler beim Laden der API-Tokens",
} as const satisfies Translation<typeof API_TOKEN_TEXTS>;
