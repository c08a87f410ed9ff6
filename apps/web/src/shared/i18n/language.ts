import {
  DEFAULT_LANGUAGE,
  isLanguage,
  LANGUAGE_LOCALES,
  LANGUAGES,
  type TLanguage,
  type Translation,
} from "@linewatch/contracts";
import i18next from "i18next";
import { useSyncExternalStore } from "react";
import type { TTwinPairs } from "./twins";

// The interface's language (issue 32 §4, decision 0316). i18next holds the language state: the
// supported languages, the current one and its change event. The texts are not i18next's keyed
// resources but the contracts' typed catalogues: a component asks `useTexts(CATALOGUE)` and gets
// the English catalogue or its German twin, which loads as its own chunk the first time German is
// needed (an English user downloads no German).

/**
 * The language this browser last showed: the user's choice is kept on the server (the session's
 * `me.language`, decision 0317); this copy lets a reload draw its first page in that language
 * before the session has answered, and the sign-in page speak the last user's language.
 */
export const LANGUAGE_STORAGE_KEY = "linewatch.language";

/** The language this browser last showed, or null when none. */
function storedLanguage(): TLanguage | null {
  try {
    const v = window.localStorage.getItem(LANGUAGE_STORAGE_KEY);
    return isLanguage(v) ? v : null;
  } catch {
    return null;
  }
}

/** The first of the browser's languages we offer ("de-AT" → "de"), else English. */
export function browserLanguage(
  languages: readonly string[] = typeof navigator === "undefined" ? [] : navigator.languages,
): TLanguage {
  for (const tag of languages) {
    const primary = tag.toLowerCase().split("-")[0];
    if (isLanguage(primary)) return primary;
  }
  return DEFAULT_LANGUAGE;
}

// One instance for the app; no resources (the catalogues are the contracts' objects), initialised
// synchronously so the language is known before the first render.
const i18n = i18next.createInstance();
void i18n.init({
  lng: storedLanguage() ?? browserLanguage(),
  supportedLngs: [...LANGUAGES],
  fallbackLng: DEFAULT_LANGUAGE,
  load: "languageOnly",
  initAsync: false,
  resources: {},
  interpolation: { escapeValue: false },
});

/** The current language (outside React: formatters; inside, prefer useLanguage). */
export function currentLanguage(): TLanguage {
  const lng = i18n.resolvedLanguage ?? i18n.language;
  return isLanguage(lng) ? lng : DEFAULT_LANGUAGE;
}

/** The locale numbers and dates are written in for the current language. */
export const currentLocale = (): string => LANGUAGE_LOCALES[currentLanguage()];

// ── The catalogues' twins ──────────────────────────────────────────────────────────────────────

/** English catalogue → its twin, per loaded language. English needs none: it is the source. */
const twins = new Map<TLanguage, Map<object, object>>();

const LOADERS: Record<Exclude<TLanguage, "en">, () => Promise<TTwinPairs>> = {
  de: () => import("./de").then((m) => m.DE_TWINS),
};

/** Loads a language's twins (once); English has nothing to load. */
export async function loadLanguage(lang: TLanguage): Promise<void> {
  if (lang === "en" || twins.has(lang)) return;
  const pairs = await LOADERS[lang]();
  twins.set(lang, new Map(pairs));
}

function applyDocumentLanguage(lang: TLanguage) {
  if (typeof document !== "undefined") document.documentElement.lang = lang;
}

/**
 * Before the first render: the current language's twins loaded and `<html lang>` set, so a German
 * user's first page is German (no English flash).
 */
export async function initLanguage(): Promise<void> {
  const lang = currentLanguage();
  applyDocumentLanguage(lang);
  try {
    await loadLanguage(lang);
  } catch {
    // The German chunk could not be fetched: the interface shows English rather than nothing.
  }
}

/** Switches the interface's language and keeps it in this browser for the next page load. */
export async function setLanguage(lang: TLanguage, { remember = true } = {}): Promise<void> {
  await loadLanguage(lang);
  if (remember) {
    try {
      window.localStorage.setItem(LANGUAGE_STORAGE_KEY, lang);
    } catch {
      // A browser that keeps nothing: the choice holds until the page is reloaded.
    }
  }
  await i18n.changeLanguage(lang);
  applyDocumentLanguage(lang);
}

/**
 * After sign-in and whenever the user's choice changes: the user's language, else the browser's
 * (issue 32 §4: "chosen per user and defaulting to the browser's").
 */
export async function followUserLanguage(choice: TLanguage | null): Promise<void> {
  const lang = choice ?? browserLanguage();
  if (lang !== currentLanguage()) await setLanguage(lang);
}

function subscribe(onChange: () => void): () => void {
  i18n.on("languageChanged", onChange);
  return () => i18n.off("languageChanged", onChange);
}

/** The current language; the component renders again when it changes. */
export function useLanguage(): TLanguage {
  return useSyncExternalStore(subscribe, currentLanguage, currentLanguage);
}

/** A catalogue in a language: its twin when loaded, else the English catalogue itself. */
export function textsIn<T extends object>(catalogue: T, lang: TLanguage): Translation<T> {
  return (twins.get(lang)?.get(catalogue) ?? catalogue) as Translation<T>;
}

/** A catalogue in the current language (English code paths get the very same object). */
export function useTexts<T extends object>(catalogue: T): Translation<T> {
  return textsIn(catalogue, useLanguage());
}

/** English text → its twin's, per loaded language: every catalogue string, built when first asked. */
const textIndexes = new Map<TLanguage, Map<string, string>>();

function indexTexts(en: unknown, other: unknown, into: Map<string, string>) {
  if (typeof en === "string") {
    if (typeof other === "string" && !into.has(en)) into.set(en, other);
  } else if (en && typeof en === "object" && other && typeof other === "object")
    for (const [k, v] of Object.entries(en)) indexTexts(v, (other as Record<string, unknown>)[k], into);
}

/**
 * A text in the current language when it is one of the catalogues' English strings, whichever
 * catalogue: a snackbar's text, a refusal the server sent in the catalogue's words. Anything else
 * (a message with the user's data in it) stays as it is.
 */
export function localizeText(text: string, lang = currentLanguage()): string {
  const pairs = twins.get(lang);
  if (!pairs) return text;
  let index = textIndexes.get(lang);
  if (!index) {
    index = new Map();
    for (const [en, other] of pairs) indexTexts(en, other, index);
    textIndexes.set(lang, index);
  }
  return index.get(text) ?? text;
}

/**
 * A message the server sent (in English) in the current language: when it is one of the
 * catalogue's strings, its twin's; else as it came (a message with the user's data in it).
 */
export function localizeMessage(catalogue: object, message: string, lang = currentLanguage()): string {
  const other = twins.get(lang)?.get(catalogue) as Record<string, unknown> | undefined;
  if (!other) return message;
  for (const [key, value] of Object.entries(catalogue)) {
    const translated = other[key];
    if (value === message && typeof translated === "string") return translated;
  }
  return message;
}
