// The German twins of the message catalogues (issue 32 §4, decision 0316), one `*.de.ts` beside
// each English catalogue's file. A separate entry point (`@linewatch/contracts/de`): the server
// never loads them, and the web app loads them as one chunk when German is first needed.

export * from "./alert-texts.de.js";
export * from "./alerts.de.js";
export * from "./api-token-texts.de.js";
export * from "./audit-log-texts.de.js";
export * from "./auth-texts.de.js";
export * from "./capability.de.js";
export * from "./evaluation-series.de.js";
export * from "./evaluation-summary.de.js";
export * from "./i18n.de.js";
export * from "./line-overview-texts.de.js";
export * from "./lines.de.js";
export * from "./plant-overview.de.js";
export * from "./settings.de.js";
export * from "./shell-texts.de.js";
export * from "./signals.de.js";
export * from "./ui.de.js";
export * from "./user-texts.de.js";
