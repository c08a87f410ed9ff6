import { SETTINGS_MESSAGES } from "@linewatch/contracts";
import { Paper, Typography } from "@mui/material";
import { useTexts } from "../../shared/i18n/language";

/** A section a later release builds. */
export function NotAvailablePanel({ title }: { title: string }) {
  const T = useTexts(SETTINGS_MESSAGES);
  return (
    <Paper sx={{ p: 4 }} variant="outlined">
      <Typography variant="h6" component="h2" gutterBottom>
        {title}
      </Typography>
      <Typography color="text.secondary">{T.notAvailable}</Typography>
    </Paper>
  );
}
