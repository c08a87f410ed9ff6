import type { AUTH_TEXTS } from "./auth-texts.js";
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
