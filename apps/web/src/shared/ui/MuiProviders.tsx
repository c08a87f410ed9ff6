import { CssBaseline, createTheme, ThemeProvider } from "@mui/material";
import type { ReactNode } from "react";
import { SnackbarProvider } from "./SnackbarProvider";

const theme = createTheme({ palette: { primary: { main: "#1d4f91" } } });

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
