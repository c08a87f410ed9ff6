import { BACKTEST_TEXTS } from "@linewatch/contracts";
import { Box, Button, LinearProgress, Typography } from "@mui/material";
import { formatDate } from "../../../../shared/format";
import type { TBacktestProgress } from "../../api/queries";

const T = BACKTEST_TEXTS;

/**
 * A running backtest's progress (issue #27): the plant-local day its replay has reached and how
 * many evaluations of how many, on a determinate bar — before the first progress line, the
 * records are being read (indeterminate) — with Cancel; once cancelled, Run again. One button
 * changes its words, so the keyboard focus stays on it through Cancel and Run again.
 */
export function BacktestRunStatus({
  progress,
  isCancelled,
  timeZone,
  onCancel,
  onRunAgain,
}: {
  progress: TBacktestProgress | null;
  isCancelled: boolean;
  timeZone: string;
  onCancel: () => void;
  onRunAgain: () => void;
}) {
  const value = progress && progress.total > 0 ? Math.min(100, (progress.done / progress.total) * 100) : null;
  const text = isCancelled
    ? T.cancelled
    : progress?.at
      ? T.progress(formatDate(progress.at, timeZone), progress.done, progress.total)
      : T.reading;
  return (
    <Box sx={{ display: "grid", gap: 0.5 }} data-testid="backtest-run-status">
      <Box sx={{ display: "flex", alignItems: "center", justifyContent: "space-between", gap: 1 }}>
        <Typography variant="body2" color={isCancelled ? "text.primary" : "text.secondary"}>
          {text}
        </Typography>
        <Button size="small" onClick={isCancelled ? onRunAgain : onCancel}>
          {isCancelled ? T.runAgain : T.cancel}
        </Button>
      </Box>
      {!isCancelled &&
        (value === null ? (
          <LinearProgress aria-label={T.progressLabel} aria-valuetext={text} />
        ) : (
          <LinearProgress
            variant="determinate"
            value={value}
            aria-label={T.progressLabel}
            aria-valuetext={text}
          />
        ))}
    </Box>
  );
}
