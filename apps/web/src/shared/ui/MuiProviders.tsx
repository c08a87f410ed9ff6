import { CssBaseline, ThemeProvider } from "@mui/material";
import { Fragment, type ReactNode, useMemo } from "react";
import { useLanguage } from "../i18n/language";
import { AppearanceProvider, createAppTheme, useAppearanceState } from "./appearance";
import { SnackbarProvider } from "./SnackbarProvider";

/**
 * The theme (light or dark, as the user chose or the system says), the baseline styles and the
 * snackbars of every page built with MUI. Only the signed-in frame (and pages outside it that use
 * MUI) wraps itself in it, so the sign-in and set-password pages, which are plain HTML, load no MUI
 * at all.
 */
export function MuiProviders({ children }: { children: ReactNode }) {
  const appearance = useAppearanceState();
  const language = useLanguage();
  const theme = useMemo(() => createAppTheme(appearance.mode, language), [appearance.mode, language]);
  return (
    <AppearanceProvider value={appearance}>
      <ThemeProvider theme={theme}>
        <CssBaseline enableColorScheme />
        <SnackbarProvider>
          {/* A new language draws every page anew: each text, date and number, memoised or not. */}
          <Fragment key={language}>{children}</Fragment>
        </SnackbarProvider>
      </ThemeProvider>
    </AppearanceProvider>
  );
}
