import type { Translation } from "./i18n.js";
import type { UNMONITORED_TEXT } from "./signals.js";

export const UNMONITORED_TEXT_DE = {
  warning: (n: number) =>
    `${n} ${n === 1 ? "Merkmal dieser Überwachung ist" : "Merkmale dieser Überwachung sind"} in der Merkmalsverwaltung ausgeschaltet oder kein Messwert mehr: Die Überwachung läuft mit den übrigen. Entfernen Sie ${n === 1 ? "es" : "sie"} im Reiter „Merkmale“, um die Überwachung zu speichern.`,
  groupWarning: (n: number) =>
    `${n} ${n === 1 ? "Merkmal" : "Merkmale"} in den Merkmalsgruppen dieser Überwachung ${n === 1 ? "ist" : "sind"} in der Merkmalsverwaltung ausgeschaltet oder kein Messwert mehr: Die Überwachung läuft mit den übrigen.`,
  noneLeft:
    "Alle Merkmale dieser Überwachung sind in der Merkmalsverwaltung ausgeschaltet oder keine Messwerte mehr: Sie erfasst keine Daten, bis eines wieder eingeschaltet wird oder die Überwachung andere Merkmale erhält.",
  chip: "Merkmale geändert",
  chipTitle: (n: number) =>
    `${n} ${n === 1 ? "Merkmal ist" : "Merkmale sind"} ausgeschaltet oder kein Messwert mehr: Die Überwachung läuft mit den übrigen`,
  chipTitleNoneLeft:
    "Alle ihre Merkmale sind ausgeschaltet oder keine Messwerte mehr: Die Überwachung erfasst keine Daten",
} as const satisfies Translation<typeof UNMONITORED_TEXT>;
