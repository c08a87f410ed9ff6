import {
  BACKTEST_BOUNDS,
  BACKTEST_DEBOUNCE_MS,
  BACKTEST_MESSAGES,
  BACKTEST_TEXTS,
  MONITOR_FORM_TEXTS,
  type TMonitorFormValues,
} from "@linewatch/contracts";
import { Alert, Box, Button, Paper, ToggleButton, ToggleButtonGroup, Typography } from "@mui/material";
import { useId, useState } from "react";
import { useFormContext, useWatch } from "react-hook-form";
import { useMonitorBacktest } from "../../api/queries";
import { useDebouncedValue } from "../filters/useDebounced";
import { useMonitorFormCtx } from "../MonitorFormContext";
import { BacktestAlertList } from "./BacktestAlertList";
import { BacktestChart } from "./BacktestChart";
import { BacktestRunStatus } from "./BacktestRunStatus";
import { backtestDays, backtestRequestOf } from "./backtest.logic";
import { useRaisedAlerts } from "./useRaisedAlerts";

const T = BACKTEST_TEXTS;

/**
 * The Backtest panel beside the query preview (issue #18 §1): what the monitor, as the form holds
 * it, would have done over the last 7 days — score against threshold with breaches and would-be
 * alerts shaded, and how many alerts it would have opened. Asks again BACKTEST_DEBOUNCE_MS after
 * the sensitivity, rules or filters stop changing; a request overtaken by a change is aborted.
 * A saved monitor (EDIT, VIEW) offers a longer period and outlines the alerts it really raised.
 * A running backtest shows its progress above the previous result and can be cancelled (#27).
 */
export function BacktestPanel() {
  const ctx = useMonitorFormCtx();
  const { control } = useFormContext<TMonitorFormValues>();
  const values = useWatch({ control }) as TMonitorFormValues;
  const savedId = ctx.mode !== "CREATE" ? values.monitor_uuid : null;
  const [days, setDays] = useState<number>(BACKTEST_BOUNDS.defaultDays);
  const request = useDebouncedValue(
    backtestRequestOf(values, { cust_uuid: ctx.customerId, plant_uuid: ctx.plant.id }, days),
    BACKTEST_DEBOUNCE_MS,
  );
  const raised = useRaisedAlerts(savedId ? values.line_uuid : null, savedId);
  const backtest = useMonitorBacktest(request.body);
  const q = backtest.query;
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
      <Box sx={{ display: "flex", alignItems: "center", justifyContent: "space-between", gap: 1 }}>
        <Typography id={headingId} variant="subtitle1" component="h3">
          {T.title}
        </Typography>
        {savedId && (
          <ToggleButtonGroup
            size="small"
            exclusive
            value={days}
            aria-label={T.period}
            onChange={(_, d: number | null) => d && setDays(d)}
          >
            {BACKTEST_BOUNDS.pageDays.map((d) => (
              <ToggleButton key={d} value={d}>
                {T.days(d)}
              </ToggleButton>
            ))}
          </ToggleButtonGroup>
        )}
      </Box>
      {request.blocked ? (
        <Typography color="text.secondary">{T.blocked[request.blocked]}</Typography>
      ) : q.error && !q.isFetching ? (
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
      ) : (
        <>
          {(q.isFetching || backtest.isCancelled) && (
            <BacktestRunStatus
              progress={backtest.progress}
              isCancelled={backtest.isCancelled}
              timeZone={ctx.plant.timeZone}
              onCancel={backtest.cancel}
              onRunAgain={backtest.runAgain}
            />
          )}
          {b && (
            <>
              <Typography variant="body2" data-testid="backtest-summary">
                {BACKTEST_MESSAGES.summary(
                  b.summary.alerts_opened,
                  backtestDays(b),
                  b.summary.breaches,
                  b.summary.evaluations,
                )}
              </Typography>
              <BacktestChart backtest={b} timeZone={ctx.plant.timeZone} raised={raised} />
              <BacktestAlertList alerts={b.alerts} timeZone={ctx.plant.timeZone} />
              {raised && (
                <Typography variant="caption" color="text.secondary">
                  {T.overlay}
                </Typography>
              )}
            </>
          )}
        </>
      )}
    </Paper>
  );
}
