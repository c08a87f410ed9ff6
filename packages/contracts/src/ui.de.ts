import type { Translation } from "./i18n.js";
import type { APPEARANCE_TEXTS } from "./ui.js";

export const APPEARANCE_TEXTS_DE = {
  heading: "Darstellung",
  options: { system: "Wie das System", light: "Hell", dark: "Dunkel" },
} as const satisfies Translation<typeof APPEARANCE_TEXTS>;
