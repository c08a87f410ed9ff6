import type { AUTH_MESSAGES, AUTH_TEXTS, PASSWORD_CHANGE_TEXTS, ROUTE_ERROR_TEXTS } from "./auth-texts.js";
import type { Translation } from "./i18n.js";

export const AUTH_TEXTS_DE = {
  productName: "Linewatch",
  signInIntro: "Melden Sie sich an, um Ihre Linien zu überwachen.",
  email: "E-Mail",
  password: "Passwort",
  signIn: "Anmelden",
  setPasswordTitle: "Passwort festlegen",
  newPassword: "Neues Passwort",
  passwordHelp: (min: number) => `Mindestens ${min} Zeichen`,
  repeatPassword: "Passwort wiederholen",
  passwordsDiffer: "Die Passwörter stimmen nicht überein",
  setPassword: "Passwort festlegen",
  goToSignIn: "Zur Anmeldung",
  loading: "Wird geladen",
} as const satisfies Translation<typeof AUTH_TEXTS>;

export const AUTH_MESSAGES_DE = {
  invalidCredentials: "E-Mail oder Passwort ist falsch",
  tooManyAttempts:
    "Zu viele fehlgeschlagene Anmeldungen mit dieser E-Mail. Warten Sie 5 Minuten und versuchen Sie es erneut.",
  tooManyAttemptsFromAddress:
    "Zu viele fehlgeschlagene Anmeldungen von dieser Netzwerkadresse. Warten Sie 5 Minuten und versuchen Sie es erneut.",
  passwordSet: "Das Passwort ist festgelegt. Sie können sich jetzt anmelden.",
  invalidPasswordLink:
    "Dieser Passwort-Link ist ungültig oder abgelaufen. Bitten Sie einen Administrator um einen neuen.",
  wrongCurrentPassword: "Das aktuelle Passwort ist falsch",
  passwordChanged: "Passwort geändert. Ihre anderen Sitzungen sind beendet.",
} as const satisfies Translation<typeof AUTH_MESSAGES>;

export const PASSWORD_CHANGE_TEXTS_DE = {
  title: "Passwort ändern",
  currentPassword: "Aktuelles Passwort",
  newPassword: "Neues Passwort",
  passwordHelp: (min: number) => `Mindestens ${min} Zeichen`,
  tooShort: (min: number) => `Das neue Passwort muss mindestens ${min} Zeichen haben`,
  repeatPassword: "Neues Passwort wiederholen",
  passwordsDiffer: "Die Passwörter stimmen nicht überein",
  currentRequired: "Geben Sie Ihr aktuelles Passwort ein",
  submit: "Passwort ändern",
  cancel: "Abbrechen",
} as const satisfies Translation<typeof PASSWORD_CHANGE_TEXTS>;

export const ROUTE_ERROR_TEXTS_DE = {
  updated: "Linewatch wurde aktualisiert. Laden Sie die Seite neu, um weiterzuarbeiten.",
  reload: "Neu laden",
  unexpectedError: "Unerwarteter Fehler in der Anwendung!",
} as const satisfies Translation<typeof ROUTE_ERROR_TEXTS>;
