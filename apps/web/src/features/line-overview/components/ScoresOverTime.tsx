import {
  EVALUATION_SERIES_MESSAGES,
  type TEvaluationSeries,
  type TLineEvaluationSeries,
} from "@linewatch/contracts";
import ShowChartIcon from "@mui/icons-material/ShowChart";
import {
  Box,
  Button,
  LinearProgress,
  Paper,
  Skeleton,
  Stack,
  ToggleButton,
  ToggleButtonGroup,
  Typography,
} from "@mui/material";
import { lazy, Suspense, useId } from "react";
import { useTexts } from "../../../shared/i18n/language";
import { MountWhenNear } from "../../../shared/ui/MountWhenNear";
import { QueryState } from "../../../shared/ui/QueryState";
import type { TPreset } from "../../capability/capability.view";

// The charts library loads with the first chart drawn (as the alert drawer's EvaluationChart).
const MonitorScoreChart = lazy(() =>
  import("./MonitorScoreChart").then((m) => ({ default: m.MonitorScoreChart })),
);

const CHART_HEIGHT = 200;

/** One monitor: its name, a CAP monitor's way to the capability view, and its chart. */
function MonitorScores(p: {
  series: TEvaluationSeries;
  from: string;
  to: string;
  timeZone: string;
  onOpenCapability: (series: TEvaluationSeries) => void;
}) {
  const headingId = useId();
  const M = useTexts(EVALUATION_SERIES_MESSAGES);
  const { monitor, points } = p.series;
  const breaches = points.filter((pt) => pt.state === "BREACH").length;
  return (
    <Box component="section" aria-labelledby={headingId} data-testid="monitor-scores">
      <Stack direction="row" spacing={1} sx={{ alignItems: "center", flexWrap: "wrap" }}>
        <Typography id={headingId} variant="subtitle1" component="h3" sx={{ mr: "auto" }}>
          {monitor.name}{" "}
          <Typography component="span" variant="body2" color="text.secondary">
            {monitor.type.toUpperCase()}
            {monitor.active ? "" : ` · ${M.inactive}`}
          </Typography>
        </Typography>
        {monitor.signal && (
          <Button
            size="small"
            startIcon={<ShowChartIcon />}
            aria-label={M.capabilityFor(monitor.signal.name)}
            onClick={() => p.onOpenCapability(p.series)}
          >
            {M.capability}
          </Button>
        )}
      </Stack>
      {points.length === 0 ? (
        <Typography color="text.secondary">{M.empty}</Typography>
      ) : (
        <>
          <Box role="figure" aria-label={M.chartLabel(monitor.name)} sx={{ width: "100%" }}>
            <MountWhenNear height={CHART_HEIGHT}>
              <Suspense fallback={<Skeleton variant="rectangular" height={CHART_HEIGHT} />}>
                <MonitorScoreChart series={p.series} from={p.from} to={p.to} timeZone={p.timeZone} />
              </Suspense>
            </MountWhenNear>
          </Box>
          <Typography variant="caption" component="p" color="text.secondary">
            {M.caption(p.series.evaluationCount, breaches, p.series.alerts.length, p.timeZone)}
            {p.series.isDecimated ? ` ${M.decimated(points.length, p.series.evaluationCount)}` : ""}
          </Typography>
        </>
      )}
    </Box>
  );
}

/**
 * The line overview's "Scores over time" (issue 32 §4): a period (ending now) and, per monitor,
 * its score against its threshold with breaches and alerts marked, one chart under the other at
 * full width. The page owns the query and the capability view; this draws them.
 */
export function ScoresOverTime(p: {
  preset: TPreset;
  onPreset: (preset: TPreset) => void;
  data: TLineEvaluationSeries | undefined;
  isLoading: boolean;
  /** The previous period's charts show while the chosen one loads. */
  isChangingPeriod: boolean;
  error: unknown;
  onRetry: () => void;
  timeZone: string;
  onOpenCapability: (series: TEvaluationSeries, period: { from: string; to: string }) => void;
}) {
  const headingId = useId();
  const M = useTexts(EVALUATION_SERIES_MESSAGES);
  const monitors = p.data?.monitors ?? [];
  return (
    <Paper variant="outlined" sx={{ p: 2 }} component="section" aria-labelledby={headingId}>
      <Stack direction="row" spacing={1} sx={{ alignItems: "center", flexWrap: "wrap", rowGap: 1, mb: 1 }}>
        <Typography id={headingId} variant="h6" component="h2" sx={{ mr: "auto" }}>
          {M.title}
        </Typography>
        <ToggleButtonGroup
          size="small"
          exclusive
          value={p.preset}
          aria-label={M.period}
          onChange={(_, v: TPreset | null) => v && p.onPreset(v)}
        >
          {(Object.keys(M.presets) as TPreset[]).map((k) => (
            <ToggleButton key={k} value={k}>
              {M.presets[k]}
            </ToggleButton>
          ))}
        </ToggleButtonGroup>
      </Stack>
      {p.isChangingPeriod && <LinearProgress aria-label={M.title} sx={{ mb: 1 }} />}
      <QueryState
        isLoading={p.isLoading}
        error={p.error}
        errorTitle={M.loadError}
        onRetry={p.onRetry}
        isEmpty={monitors.length === 0 || monitors.every((m) => m.evaluationCount === 0)}
        empty={
          <Typography color="text.secondary">{monitors.length === 0 ? M.noMonitors : M.empty}</Typography>
        }
      >
        <Stack spacing={2}>
          {p.data &&
            monitors.map((s) => (
              <MonitorScores
                key={s.monitor.id}
                series={s}
                from={p.data?.from ?? ""}
                to={p.data?.to ?? ""}
                timeZone={p.timeZone}
                onOpenCapability={(series) =>
                  p.data && p.onOpenCapability(series, { from: p.data.from, to: p.data.to })
                }
              />
            ))}
        </Stack>
      </QueryState>
    </Paper>
  );
}
