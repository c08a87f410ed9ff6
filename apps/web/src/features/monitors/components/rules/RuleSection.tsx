import type { TMonitorFormValues } from "@linewatch/contracts";
import { FormControlLabel, Paper, Stack, Switch, Typography } from "@mui/material";
import { type ReactNode, useId } from "react";
import { useFormContext, useWatch } from "react-hook-form";
import { useMonitorFormCtx } from "../MonitorFormContext";

export type TRuleEnabledPath = "rules.consecutiveEnabled" | "rules.runsEnabled" | "rules.timeEnabled";

/** One switchable rule: its switch (named after the rule), what it means, and its inputs. */
export function RuleSection(p: {
  title: string;
  enabledName: TRuleEnabledPath;
  description: string;
  children: ReactNode;
  /** Shown under the inputs (the time rule's never-fires warning). */
  footer?: ReactNode;
}) {
  const { readOnly } = useMonitorFormCtx();
  const { control, setValue } = useFormContext<TMonitorFormValues>();
  const isEnabled = useWatch({ control, name: p.enabledName });
  const titleId = useId();
  return (
    <Paper variant="outlined" role="group" aria-labelledby={titleId} sx={{ p: 2 }}>
      <FormControlLabel
        control={
          <Switch
            checked={isEnabled}
            disabled={readOnly}
            onChange={(_, checked) => setValue(p.enabledName, checked, { shouldDirty: true })}
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
