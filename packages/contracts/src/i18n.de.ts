import type { LANGUAGE_TEXTS, Translation } from "./i18n.js";

export const LANGUAGE_TEXTS_DE = {
  heading: "Sprache",
  browser: "Wie im Browser",
  options: { en: "English", de: "Deutsch" },
  saveFailed: "Die Sprache konnte nicht gespeichert werden",
} as const satisfies Translation<typeof LANGUAGE_TEXTS>;
