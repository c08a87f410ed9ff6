import {
  BACKTEST_DEBOUNCE_MS,
  BACKTEST_MESSAGES,
  BACKTEST_TEXTS,
  MONITOR_FORM_TEXTS,
  type TMonitorFormValues,
} from "@linewatch/contracts";
import { Alert, Box, Button, CircularProgress, LinearProgress, Paper, Typography } from "@mui/material";
import { useId } from "react";
import { useFormContext, useWatch } from "react-hook-form";
import { useMonitorBacktest } from "../../api/queries";
import { useDebouncedValue } from "../filters/useDebounced";
import { useMonitorFormCtx } from "../MonitorFormContext";
import { BacktestChart } from "./BacktestChart";
import { backtestDays, backtestRequestOf } from "./backtest.logic";

const T = BACKTEST_TEXTS;

/**
 * The Backtest panel beside the query preview (issue #18 §1): what the monitor, as the form holds
 * it, would have done over the last 7 days — score against threshold with breaches and would-be
 * alerts shaded, and how many alerts it would have opened. Asks again BACKTEST_DEBOUNCE_MS after
 * the sensitivity, rules or filters stop changing; a request overtaken by a change is aborted.
 */
export function BacktestPanel() {
  const ctx = useMonitorFormCtx();
  const { control } = useFormContext<TMonitorFormValues>();
  const values = useWatch({ control }) as TMonitorFormValues;
  const request = useDebouncedValue(
    backtestRequestOf(values, { cust_uuid: ctx.customerId, plant_uuid: ctx.plant.id }),
    BACKTEST_DEBOUNCE_MS,
  );
  const q = useMonitorBacktest(request.body);
  const headingId = useId();
  const b = q.data;
  return (
    <Paper
      variant="outlined"
      component="section"
      aria-labelledby={headingId}
      aria-busy={q.isFetching}
      sx={{ p: 2, display: "grid", gap: 1.5, alignContent: "start" }}
    >
      <Typography id={headingId} variant="subtitle1" component="h3">
        {T.title}
      </Typography>
      {request.blocked ? (
        <Typography color="text.secondary">{T.blocked[request.blocked]}</Typography>
      ) : q.error ? (
        <Alert
          severity="error"
          action={
            <Button color="inherit" size="small" onClick={() => q.refetch()}>
              {MONITOR_FORM_TEXTS.retry}
            </Button>
          }
        >
          {T.loadError(q.error instanceof Error ? q.error.message : String(q.error))}
        </Alert>
      ) : !b ? (
        <Box sx={{ display: "flex", justifyContent: "center", p: 2 }}>
          <CircularProgress size={28} aria-label={T.loading} />
        </Box>
      ) : (
        <>
          {q.isFetching && <LinearProgress aria-label={T.updating} />}
          <Typography variant="body2" data-testid="backtest-summary">
            {BACKTEST_MESSAGES.summary(
              b.summary.alerts_opened,
              backtestDays(b),
              b.summary.breaches,
              b.summary.evaluations,
            )}
          </Typography>
          <BacktestChart backtest={b} timeZone={ctx.plant.timeZone} />
        </>
      )}
    </Paper>
  );
}
