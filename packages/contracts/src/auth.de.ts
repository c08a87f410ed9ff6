import type { AUTH_MESSAGES } from "./auth.js";
import type { Translation } from "./i18n.js";

export const AUTH_MESSAGES_DE = {
  invalidCredentials: "E-Mail oder Passwort ist falsch",
  tooManyAttempts: "Zu viele fehlgeschlagene Anmeldungen mit dieser E-Mail. Warten Sie 5 Minuten und versuchen Sie es erneut.",
  tooManyAttemptsFromAddress:
    "Zu viele fehlgeschlagene Anmeldungen von dieser Netzwerkadresse. Warten Sie 5 Minuten und versuchen Sie es erneut.",
  passwordSet: "Das Passwort ist festgelegt. Sie können sich jetzt anmelden.",
  invalidPasswordLink:
    "Dieser Passwort-Link ist ungültig oder abgelaufen. Bitten Sie einen Administrator um einen neuen.",
} as const satisfies Translation<typeof AUTH_MESSAGES>;
