import {
  CHART_SERIES_TEXTS,
  EVALUATION_SERIES_MESSAGES,
  evaluationChartSeries,
  type TEvaluationSeries,
} from "@linewatch/contracts";
import { useTheme } from "@mui/material";
import { LineChart, lineClasses } from "@mui/x-charts/LineChart";
import { formatDateTime, formatSignificant, tickLabel, tickSpanOf } from "../../../shared/format";
import { useTexts } from "../../../shared/i18n/language";
import { AlertSpan } from "../../alerts/components/AlertSpan";

/** Marks only the points without a neighbour, which a line alone would not show. */
function isolated(data: readonly (number | null)[]) {
  return ({ index }: { index: number }) =>
    data[index] != null && data[index - 1] == null && data[index + 1] == null;
}

const fmt = (v: number | null) => formatSignificant(v, 3);

/** The chart kind of a monitor type (a type the contracts do not know draws as CAP does). */
const monitorTypeOf = (t: string) => (t === "mvd" || t === "svd" ? t : "cap");

/**
 * One monitor's scores over the chosen period (issue 32 §4), drawn as the alert drawer's
 * EvaluationChart draws them: the score line, the threshold as a dashed step line, breaches as
 * diamonds, and each alert shaded from its opening to its resolution (its last firing when it has
 * none recorded; the period's end while it is open). The x axis spans the whole period, in the
 * plant's time zone. Loaded as its own chunk with the charts library.
 */
export function MonitorScoreChart(p: {
  series: TEvaluationSeries;
  from: string;
  to: string;
  timeZone: string;
}) {
  const theme = useTheme();
  const M = useTexts(EVALUATION_SERIES_MESSAGES);
  const labels = useTexts(CHART_SERIES_TEXTS)[monitorTypeOf(p.series.monitor.type)];
  const { monitor, points } = p.series;
  const kind = evaluationChartSeries(monitor.type);
  const from = new Date(p.from);
  const to = new Date(p.to);
  const span = tickSpanOf([from, to]);
  const times = points.map((pt) => new Date(pt.slot));
  const score = points.map((pt) => pt.plotScore);
  const threshold = points.map((pt) => pt.plotThreshold);
  const breaches = points.map((pt) => (pt.state === "BREACH" ? pt.plotScore : null));
  return (
    <LineChart
      height={200}
      margin={{ left: 8, right: 24 }}
      skipAnimation
      xAxis={[
        {
          data: times,
          scaleType: "utc",
          min: from,
          max: to,
          tickNumber: 5,
          valueFormatter: (d: Date, ctx) =>
            ctx.location === "tick" ? tickLabel(d, p.timeZone, span) : formatDateTime(d, p.timeZone),
        },
      ]}
      yAxis={[{ width: "auto", scaleType: kind.scale }]}
      series={[
        {
          id: "score",
          label: labels.score,
          data: score,
          showMark: isolated(score),
          color: theme.palette.primary.main,
          valueFormatter: fmt,
        },
        {
          id: "bar",
          label: labels.threshold,
          data: threshold,
          showMark: isolated(threshold),
          curve: "stepAfter",
          color: theme.palette.warning.main,
          valueFormatter: fmt,
        },
        {
          id: "breach",
          label: M.breach,
          data: breaches,
          showMark: ({ index }) => breaches[index] != null,
          shape: "diamond",
          color: theme.palette.error.main,
          valueFormatter: (v) => (v == null ? null : M.breach),
        },
      ]}
      sx={{
        [`& .${lineClasses.line}[data-series="breach"]`]: { display: "none" },
        [`& .${lineClasses.line}[data-series="bar"]`]: { strokeDasharray: "6 4" },
      }}
    >
      {p.series.alerts.map((a) => (
        <AlertSpan
          key={a.id}
          from={new Date(a.openedAt)}
          to={new Date(a.resolvedAt ?? (a.state === "RESOLVED" ? a.lastSeenAt : p.to))}
          color={theme.palette.error.main}
        />
      ))}
    </LineChart>
  );
}
