import { APPEARANCES, type TAppearance, type TLanguage } from "@linewatch/contracts";
import { createTheme, type PaletteMode, type Theme, useMediaQuery } from "@mui/material";
import { deDE } from "@mui/material/locale";
import { createContext, type ReactNode, useCallback, useContext, useMemo, useState } from "react";

/** Where the chosen appearance is kept: this browser, for every user of it. */
export const APPEARANCE_STORAGE_KEY = "linewatch.appearance";

const isAppearance = (v: unknown): v is TAppearance => (APPEARANCES as readonly unknown[]).includes(v);

function storedAppearance(): TAppearance {
  try {
    const v = window.localStorage.getItem(APPEARANCE_STORAGE_KEY);
    return isAppearance(v) ? v : "system";
  } catch {
    return "system";
  }
}

/**
 * The theme of a mode. contrastThreshold 4.5: a chip's or button's text takes black where white on
 * its colour would fall short of WCAG AA's 4.5:1 (MUI's default of 3 put white on the info and
 * warning colours: 3.85 and 3.1). In the dark, the primary blue is a light one (the dark blue on
 * the dark background is 2.3:1). In German, MUI's own words (a select's "Open", a pagination's
 * "Rows per page") are MUI's German locale.
 */
export function createAppTheme(mode: PaletteMode, language: TLanguage = "en"): Theme {
  return createTheme(
    {
      palette: { mode, primary: { main: mode === "dark" ? "#90b4e8" : "#1d4f91" }, contrastThreshold: 4.5 },
    },
    ...(language === "de" ? [deDE] : []),
  );
}

type AppearanceState = {
  appearance: TAppearance;
  mode: PaletteMode;
  setAppearance: (a: TAppearance) => void;
};
const AppearanceContext = createContext<AppearanceState | null>(null);

/**
 * The chosen appearance and the mode it gives: "system" follows the system's light or dark
 * setting (prefers-color-scheme) as it changes.
 */
export function useAppearanceState(): AppearanceState {
  const [appearance, setState] = useState<TAppearance>(storedAppearance);
  const prefersDark = useMediaQuery("(prefers-color-scheme: dark)", { noSsr: true });
  const setAppearance = useCallback((a: TAppearance) => {
    setState(a);
    try {
      window.localStorage.setItem(APPEARANCE_STORAGE_KEY, a);
    } catch {
      // A browser that keeps nothing: the choice holds until the page is reloaded.
    }
  }, []);
  const mode: PaletteMode = appearance === "system" ? (prefersDark ? "dark" : "light") : appearance;
  return useMemo(() => ({ appearance, mode, setAppearance }), [appearance, mode, setAppearance]);
}

export function AppearanceProvider({ value, children }: { value: AppearanceState; children: ReactNode }) {
  return <AppearanceContext.Provider value={value}>{children}</AppearanceContext.Provider>;
}

/** The appearance and its setter, or null outside MuiProviders. */
export function useAppearance(): AppearanceState | null {
  return useContext(AppearanceContext);
}
