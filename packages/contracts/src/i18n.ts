// The interface's languages (issue 32 §4 "Language"): English, the specification's texts word for
// word, and German. The English catalogues (the `*_TEXTS` and `*_MESSAGES` objects beside their
// schemas) are the source; each German twin sits beside its English catalogue in a `*.de.ts` file
// and is checked against it by `Translation<…>`, so a missing key, an extra one or a function
// taking other arguments fails the typecheck (decision 0316).

export const LANGUAGES = ["en", "de"] as const;
export type TLanguage = (typeof LANGUAGES)[number];
export const DEFAULT_LANGUAGE: TLanguage = "en";

export const isLanguage = (v: unknown): v is TLanguage => (LANGUAGES as readonly unknown[]).includes(v);

/** The locale a language formats its numbers and dates with (decimal comma in German). */
export const LANGUAGE_LOCALES = { en: "en-US", de: "de-DE" } as const satisfies Record<TLanguage, string>;

/**
 * A catalogue's twin in another language: every string a string, every function one taking the
 * same arguments and returning a string, nested objects and arrays alike, the same keys.
 */
export type Translation<T> = T extends string
  ? string
  : T extends (...args: infer A) => string
    ? (...args: A) => string
    : T extends readonly (infer U)[]
      ? readonly Translation<U>[]
      : T extends object
        ? { readonly [K in keyof T]: Translation<T[K]> }
        : T;

/**
 * The user menu's language choice: the browser's language (no choice kept), or one of ours, each
 * named in its own words in every language.
 */
export const LANGUAGE_TEXTS = {
  heading: "Language",
  browser: "Same as the browser",
  options: { en: "English", de: "Deutsch" },
  saveFailed: "The language could not be saved",
} as const satisfies {
  heading: string;
  browser: string;
  options: Record<TLanguage, string>;
  saveFailed: string;
};
