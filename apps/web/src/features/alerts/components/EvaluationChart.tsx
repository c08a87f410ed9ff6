import {
  ALERT_TEXTS,
  CHART_SERIES_TEXTS,
  evaluationSummary,
  noDataReasonOf,
  type TAlertEvaluation,
} from "@linewatch/contracts";
import { Typography, useTheme } from "@mui/material";
import { LineChart, lineClasses } from "@mui/x-charts/LineChart";
import { formatDateTime, formatSignificant, tickLabel, tickSpanOf } from "../../../shared/format";
import { useTexts } from "../../../shared/i18n/language";
import { AlertSpan } from "./AlertSpan";
import { chartLines } from "./evaluationDetails";

/** Marks only the points without a neighbour, which a line alone would not show. */
function isolated(data: readonly (number | null)[]) {
  return ({ index }: { index: number }) =>
    data[index] != null && data[index - 1] == null && data[index + 1] == null;
}

/**
 * The evaluation history of the alert's monitor: score and threshold over time, breaches marked,
 * the alert's span [openedAt, resolvedAt or now] shaded, times in the plant's time zone.
 */
export function EvaluationChart(p: {
  type: string;
  evaluations: readonly TAlertEvaluation[];
  openedAt: string;
  resolvedAt: string | null;
  timeZone: string;
}) {
  const theme = useTheme();
  const T = useTexts(ALERT_TEXTS);
  const chartType = p.type === "mvd" || p.type === "svd" ? p.type : "cap";
  const labels = useTexts(CHART_SERIES_TEXTS)[chartType];
  const evaluations = p.evaluations;
  if (evaluations.length === 0) {
    return <Typography color="text.secondary">{T.noEvaluations}</Typography>;
  }
  const times = evaluations.map((e) => new Date(e.slot));
  const span = tickSpanOf(times);
  const lines = chartLines(p.type, evaluations);
  const breaches = evaluations.map((e, i) => (e.state === "BREACH" ? (lines.score[i] ?? null) : null));
  const breachCount = evaluations.filter((e) => e.state === "BREACH").length;
  const noData = evaluations.filter((e) => e.state === "NO_DATA" || e.state === "ERROR").length;
  const fmt = (v: number | null) => formatSignificant(v, 3);
  const latest = [...evaluations].reverse().find((e) => e.score != null);
  // The newest evaluation found nothing to watch (its signals switched off or converted, issue #15):
  // say so, rather than leave the last scored one as the latest word.
  const newest = evaluations.at(-1);
  const newestNoData = newest?.state === "NO_DATA" ? noDataReasonOf(newest.details) : null;
  const summaryType = p.type === "mvd" || p.type === "svd" ? p.type : "cap";
  const latestSummary = latest
    ? evaluationSummary(summaryType, {
        score: latest.score,
        threshold: latest.threshold,
        details:
          typeof latest.details === "object" ? (latest.details as Record<string, unknown> | null) : null,
      })
    : null;
  return (
    <>
      <LineChart
        height={260}
        margin={{ left: 8, right: 28 }}
        xAxis={[
          {
            data: times,
            scaleType: "utc",
            tickNumber: 5,
            valueFormatter: (d: Date, ctx) =>
              ctx.location === "tick" ? tickLabel(d, p.timeZone, span) : formatDateTime(d, p.timeZone),
          },
        ]}
        yAxis={[{ width: "auto", scaleType: lines.scale }]}
        series={[
          {
            id: "score",
            label: labels.score,
            data: lines.score,
            showMark: isolated(lines.score),
            color: theme.palette.primary.main,
            valueFormatter: fmt,
          },
          {
            id: "bar",
            label: labels.threshold,
            data: lines.bar,
            showMark: isolated(lines.bar),
            curve: "stepAfter",
            color: theme.palette.warning.main,
            valueFormatter: fmt,
          },
          {
            id: "breach",
            label: T.breach,
            data: breaches,
            showMark: true,
            shape: "diamond",
            color: theme.palette.error.main,
            valueFormatter: (v) => (v == null ? null : T.breachPoint),
          },
        ]}
        sx={{
          [`& .${lineClasses.line}[data-series="breach"]`]: { display: "none" },
          [`& .${lineClasses.line}[data-series="bar"]`]: { strokeDasharray: "6 4" },
        }}
      >
        <AlertSpan
          from={new Date(p.openedAt)}
          to={p.resolvedAt ? new Date(p.resolvedAt) : new Date()}
          color={theme.palette.error.main}
        />
      </LineChart>
      {newestNoData ? (
        <Typography variant="body2" data-testid="evaluation-summary">
          {T.latestNoData(newestNoData)}
        </Typography>
      ) : (
        latestSummary && (
          <Typography variant="body2" data-testid="evaluation-summary">
            {T.latest(latestSummary)}
          </Typography>
        )
      )}
      <Typography variant="caption" component="p" color="text.secondary">
        {p.type in T.chartCaption ? `${T.chartCaption[chartType]} ` : ""}
        {T.shaded(p.resolvedAt != null)} {T.chartCounts(evaluations.length, breachCount, noData, p.timeZone)}
      </Typography>
    </>
  );
}
