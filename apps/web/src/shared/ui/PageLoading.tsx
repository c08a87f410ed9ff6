import { SHELL_TEXTS } from "@linewatch/contracts";
import { Box, CircularProgress } from "@mui/material";
import { useTexts } from "../i18n/language";

/** What shows while a page's or a section's code is still loading (its chunk, on first visit). */
export function PageLoading({ fullScreen = false }: { fullScreen?: boolean }) {
  const T = useTexts(SHELL_TEXTS);
  return (
    <Box
      sx={{
        display: "flex",
        justifyContent: "center",
        alignItems: "center",
        p: 4,
        minHeight: fullScreen ? "100vh" : undefined,
      }}
      role="progressbar"
      aria-label={T.loading}
    >
      <CircularProgress />
    </Box>
  );
}
