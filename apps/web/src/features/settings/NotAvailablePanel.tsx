import { SETTINGS_MESSAGES } from "@linewatch/contracts";
import { Paper, Typography } from "@mui/material";

/** A section a later release builds. */
export function NotAvailablePanel({ title }: { title: string }) {
  return (
    <Paper sx={{ p: 4 }} variant="outlined">
      <Typography variant="h6" component="h2" gutterBottom>
        {title}
      </Typography>
      <Typography color="text.secondary">{SETTINGS_MESSAGES.notAvailable}</Typography>
    </Paper>
  );
}
