import { FormControlLabel, Paper, Stack, Switch, Typography } from "@mui/material";
import { type ReactNode, useId } from "react";

/** One switchable rule: its switch (named after the rule), what it means, and its inputs. */
export function RuleSection(p: {
  title: string;
  isEnabled: boolean;
  onEnabledChange: (isEnabled: boolean) => void;
  readOnly: boolean;
  description: string;
  children: ReactNode;
  /** Shown under the inputs (the time rule's never-fires warning). */
  footer?: ReactNode;
}) {
  const titleId = useId();
  return (
    <Paper variant="outlined" role="group" aria-labelledby={titleId} sx={{ p: 2 }}>
      <FormControlLabel
        control={
          <Switch
            checked={p.isEnabled}
            disabled={p.readOnly}
            onChange={(_, checked) => p.onEnabledChange(checked)}
          />
        }
        label={
          <Typography id={titleId} variant="subtitle1" component="span">
            {p.title}
          </Typography>
        }
      />
      <Typography variant="body2" color="text.secondary" sx={{ mb: 2 }}>
        {p.description}
      </Typography>
      <Stack direction="row" spacing={2} sx={{ flexWrap: "wrap", alignItems: "flex-start" }}>
        {p.children}
      </Stack>
      {p.footer}
    </Paper>
  );
}
