import { CssBaseline, createTheme, ThemeProvider } from "@mui/material";
import type { ReactNode } from "react";
import { SnackbarProvider } from "./SnackbarProvider";

// contrastThreshold 4.5: a chip's or button's text takes black where white on its colour would fall
// short of WCAG AA's 4.5:1 (MUI's default of 3 put white on the info and warning colours: 3.85
// and 3.1).
const theme = createTheme({ palette: { primary: { main: "#1d4f91" }, contrastThreshold: 4.5 } });

/**
 * The theme, the baseline styles and the snackbars of every page built with MUI. Only the
 * signed-in frame (and pages outside it that use MUI) wraps itself in it, so the sign-in and
 * set-password pages, which are plain HTML, load no MUI at all.
 */
export function MuiProviders({ children }: { children: ReactNode }) {
  return (
    <ThemeProvider theme={theme}>
      <CssBaseline />
      <SnackbarProvider>{children}</SnackbarProvider>
    </ThemeProvider>
  );
}
