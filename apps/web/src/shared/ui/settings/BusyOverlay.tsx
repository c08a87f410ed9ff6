import { SETTINGS_KIT_MESSAGES } from "@linewatch/contracts";
import { Backdrop, CircularProgress, Stack, Typography } from "@mui/material";

/**
 * Covers a section (its nearest positioned parent) while a save runs, so nothing is edited twice:
 * a spinner and 'Saving...' unless the section words it otherwise.
 */
export function BusyOverlay({ open, text = SETTINGS_KIT_MESSAGES.saving }: { open: boolean; text?: string }) {
  if (!open) return null;
  return (
    <Backdrop open sx={{ position: "absolute", zIndex: (t) => t.zIndex.modal - 1, color: "#fff" }}>
      <Stack role="status" aria-live="polite" spacing={1} sx={{ alignItems: "center" }}>
        <CircularProgress color="inherit" aria-label={text} />
        <Typography>{text}</Typography>
      </Stack>
    </Backdrop>
  );
}
