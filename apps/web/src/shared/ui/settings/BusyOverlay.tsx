import { SETTINGS_KIT_MESSAGES } from "@linewatch/contracts";
import { Backdrop, CircularProgress, Stack, Typography } from "@mui/material";
import { useTexts } from "../../i18n/language";

/**
 * Covers a section (its nearest positioned parent) while a save runs, so nothing is edited twice:
 * a spinner and 'Saving...' unless the section words it otherwise.
 */
export function BusyOverlay({ open, text }: { open: boolean; text?: string }) {
  const M = useTexts(SETTINGS_KIT_MESSAGES);
  if (!open) return null;
  return (
    <Backdrop open sx={{ position: "absolute", zIndex: (t) => t.zIndex.modal - 1, color: "#fff" }}>
      <Stack role="status" aria-live="polite" spacing={1} sx={{ alignItems: "center" }}>
        <CircularProgress color="inherit" aria-label={text ?? M.saving} />
        <Typography>{text ?? M.saving}</Typography>
      </Stack>
    </Backdrop>
  );
}
