import { BACKTEST_TEXTS, type TBacktest } from "@linewatch/contracts";
import { useTheme } from "@mui/material";
import { useDrawingArea, useXScale } from "@mui/x-charts/hooks";
import { LineChart, lineClasses } from "@mui/x-charts/LineChart";
import { formatDateTime, tickLabel, tickSpanOf } from "../../../../shared/format";

const T = BACKTEST_TEXTS;

export type Span = { from: Date; to: Date };

/** Spans shaded (or outlined) over the plot area, clamped to the charted times (at least 3 px wide). */
function Spans(p: { spans: Span[]; color: string; opacity: number; testId: string; outlined?: boolean }) {
  const x = useXScale<"utc">();
  const area = useDrawingArea();
  const clamp = (v: number) => Math.min(area.left + area.width, Math.max(area.left, v));
  return (
    <>
      {p.spans.map((s) => {
        const x1 = clamp(x(s.to));
        const x0 = Math.max(area.left, Math.min(clamp(x(s.from)), x1 - 3));
        if (!(x1 > x0)) return null;
        return (
          <rect
            key={s.from.toISOString()}
            data-testid={p.testId}
            x={x0}
            y={area.top}
            width={x1 - x0}
            height={area.height}
            fill={p.outlined ? "none" : p.color}
            stroke={p.outlined ? p.color : "none"}
            strokeWidth={p.outlined ? 2 : 0}
            opacity={p.opacity}
            pointerEvents="none"
          />
        );
      })}
    </>
  );
}

/** Score against threshold over the backtest's slots; breaches marked and shaded, would-be alerts shaded. */
export function BacktestChart({
  backtest: b,
  timeZone,
  raised,
}: {
  backtest: TBacktest;
  timeZone: string;
  /** The alerts the saved monitor really raised, outlined over the would-be ones. */
  raised?: Span[] | null;
}) {
  const theme = useTheme();
  const times = b.slots.map((s) => new Date(s.slot));
  const span = tickSpanOf(times);
  const score = b.slots.map((s) => s.score);
  const threshold = b.slots.map((s) => s.threshold);
  const breaches = b.slots.map((s) => (s.state === "BREACH" ? s.score : null));
  const fmt = (v: number | null) => (v == null ? "–" : Number(v.toPrecision(3)).toString());
  // A breach's slot shaded half a frequency either side.
  const half = (b.frequency * 60_000) / 2;
  const breachSpans = b.slots
    .filter((s) => s.state === "BREACH")
    .map((s) => ({ from: new Date(Date.parse(s.slot) - half), to: new Date(Date.parse(s.slot) + half) }));
  const alerts = b.alerts.map((a) => ({ from: new Date(a.opened_at), to: new Date(a.resolved_at ?? b.to) }));
  return (
    <LineChart
      aria-label={T.chartLabel}
      height={220}
      margin={{ left: 8, right: 16 }}
      skipAnimation
      xAxis={[
        {
          data: times,
          scaleType: "utc",
          tickNumber: 5,
          valueFormatter: (d: Date, c) =>
            c.location === "tick" ? tickLabel(d, timeZone, span) : formatDateTime(d, timeZone),
        },
      ]}
      yAxis={[{ width: "auto" }]}
      series={[
        {
          id: "score",
          label: T.score,
          data: score,
          showMark: false,
          color: theme.palette.primary.main,
          valueFormatter: fmt,
        },
        {
          id: "threshold",
          label: T.threshold,
          data: threshold,
          showMark: false,
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
          valueFormatter: (v) => (v == null ? null : T.breach),
        },
      ]}
      sx={{
        [`& .${lineClasses.line}[data-series="breach"]`]: { display: "none" },
        [`& .${lineClasses.line}[data-series="threshold"]`]: { strokeDasharray: "6 4" },
      }}
    >
      <Spans spans={breachSpans} color={theme.palette.warning.main} opacity={0.25} testId="backtest-breach" />
      <Spans spans={alerts} color={theme.palette.error.main} opacity={0.12} testId="backtest-alert" />
      {raised && (
        <Spans spans={raised} color={theme.palette.info.main} opacity={0.9} testId="raised-alert" outlined />
      )}
    </LineChart>
  );
}
