import { Box, CircularProgress } from "@mui/material";

/** What shows while a page's or a section's code is still loading (its chunk, on first visit). */
export function PageLoading({ fullScreen = false }: { fullScreen?: boolean }) {
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
      aria-label="Loading"
    >
      <CircularProgress />
    </Box>
  );
}
