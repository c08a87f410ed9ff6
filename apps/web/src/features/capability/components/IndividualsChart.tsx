import { CAPABILITY_MESSAGES as M, type TCapabilityPoint } from "@linewatch/contracts";
import { useTheme } from "@mui/material";
import { ChartsReferenceLine } from "@mui/x-charts/ChartsReferenceLine";
import { useXScale, useYScale } from "@mui/x-charts/hooks";
import { LineChart, type LineSeries, lineClasses } from "@mui/x-charts/LineChart";
import { formatDateTime, tickLabel, tickSpanOf } from "../../../shared/format";
import { fmt, LIMITS, limitLine, yRange } from "../capability.view";

/** The rule numbers written above the points that break them (inside the chart's SVG). */
function RuleLabels(p: { points: readonly TCapabilityPoint[]; times: readonly Date[]; color: string }) {
  const x = useXScale<"utc">();
  const y = useYScale<"linear">();
  return (
    <g aria-hidden>
      {p.points.map((pt, i) =>
        pt.rules.length ? (
          <text
            key={`${pt.ts}-${pt.partId}`}
            x={x(p.times[i] as Date)}
            y={(y(pt.value) ?? 0) - 8}
            textAnchor="middle"
            fontSize={10}
            fontWeight={600}
            fill={p.color}
            data-testid="rule-label"
          >
            {pt.rules.join(",")}
          </text>
        ) : null,
      )}
    </g>
  );
}

/**
 * The individuals (I) chart: each record's value over time (plant time zone) against LCL/UCL
 * (dashed) and LSL/USL; a limit that differs between records is a step line. Points breaking a
 * Western Electric rule are diamonds with the rule number above them.
 */
export function IndividualsChart(p: {
  points: readonly TCapabilityPoint[];
  mean: number | null;
  signal: string;
  timeZone: string;
}) {
  const theme = useTheme();
  const times = p.points.map((pt) => new Date(pt.ts));
  const span = tickSpanOf(times);
  const colorOf = (isSpec: boolean) => (isSpec ? theme.palette.error.main : theme.palette.warning.dark);
  const lines = LIMITS.map((l) => ({ ...l, line: limitLine(p.points, l.key) }));
  const broken = p.points.map((pt) => (pt.rules.length ? pt.value : null));
  const hasBreaks = broken.some((v) => v != null);
  const varying: LineSeries[] = lines.flatMap((l) =>
    l.line && l.line.constant == null
      ? [
          {
            id: l.key,
            label: l.label,
            data: l.line.values,
            curve: "stepAfter" as const,
            showMark: false,
            color: colorOf(l.isSpec),
            valueFormatter: fmt,
          },
        ]
      : [],
  );
  const { min, max } = yRange(p.points);
  return (
    <LineChart
      height={280}
      margin={{ left: 8, right: 40 }}
      skipAnimation
      xAxis={[
        {
          data: times,
          scaleType: "utc",
          tickNumber: 6,
          valueFormatter: (t: Date, ctx) =>
            ctx.location === "tick" ? tickLabel(t, p.timeZone, span) : formatDateTime(t, p.timeZone),
        },
      ]}
      yAxis={[{ width: "auto", min, max, label: p.signal }]}
      series={[
        {
          id: "value",
          label: p.signal,
          data: p.points.map((pt) => pt.value),
          curve: "linear",
          showMark: false,
          color: theme.palette.primary.main,
          valueFormatter: (v, ctx) => {
            const pt = p.points[ctx.dataIndex];
            return v == null || !pt
              ? "–"
              : `${fmt(v)} (part ${pt.partId}${pt.modelNumber ? `, model ${pt.modelNumber}` : ""})`;
          },
        },
        ...(hasBreaks
          ? [
              {
                id: "rules",
                label: "Rule breaks",
                data: broken,
                showMark: ({ index }: { index: number }) => broken[index] != null,
                shape: "diamond" as const,
                color: theme.palette.error.main,
                valueFormatter: (v: number | null, ctx: { dataIndex: number }) =>
                  v == null ? null : (p.points[ctx.dataIndex]?.rules.map(M.rule).join(", ") ?? null),
              },
            ]
          : []),
        ...varying,
      ]}
      sx={{
        [`& .${lineClasses.line}[data-series="rules"]`]: { display: "none" },
        [`& .${lineClasses.line}[data-series="lcl"], & .${lineClasses.line}[data-series="ucl"]`]: {
          strokeDasharray: "6 4",
        },
      }}
    >
      {p.mean != null && (
        <ChartsReferenceLine
          y={p.mean}
          label="X̄"
          labelAlign="end"
          lineStyle={{ stroke: theme.palette.text.secondary, strokeDasharray: "2 3" }}
          labelStyle={{ fontSize: 11 }}
        />
      )}
      {lines.map((l) =>
        l.line?.constant != null ? (
          <ChartsReferenceLine
            key={l.key}
            y={l.line.constant}
            label={l.label}
            labelAlign="end"
            lineStyle={{ stroke: colorOf(l.isSpec), strokeDasharray: l.isSpec ? undefined : "6 4" }}
            labelStyle={{ fontSize: 11, fill: colorOf(l.isSpec) }}
          />
        ) : null,
      )}
      {hasBreaks && <RuleLabels points={p.points} times={times} color={theme.palette.error.dark} />}
    </LineChart>
  );
}
