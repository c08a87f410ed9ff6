import type { LANGUAGE_TEXTS, Translation } from "./i18n.js";

export const LANGUAGE_TEXTS_DE = {
  heading: "Sprache",
  options: { en: "English", de: "Deutsch" },
} as const satisfies Translation<typeof LANGUAGE_TEXTS>;
