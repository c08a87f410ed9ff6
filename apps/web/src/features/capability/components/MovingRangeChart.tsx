import type { TCapabilityPoint } from "@linewatch/contracts";
import { useTheme } from "@mui/material";
import { ChartsReferenceLine } from "@mui/x-charts/ChartsReferenceLine";
import { LineChart } from "@mui/x-charts/LineChart";
import { formatDateTime, tickLabel, tickSpanOf } from "../../../shared/format";
import { fmt } from "../capability.view";

/** The moving range (MR) chart: |xᵢ − xᵢ₋₁| over time with MR̄ and UCL = 3.267 · MR̄ (LCL 0). */
export function MovingRangeChart(p: {
  points: readonly TCapabilityPoint[];
  mrBar: number | null;
  mrUcl: number | null;
  timeZone: string;
}) {
  const theme = useTheme();
  const times = p.points.map((pt) => new Date(pt.ts));
  const span = tickSpanOf(times);
  const top = Math.max(p.mrUcl ?? 0, ...p.points.map((pt) => pt.mr ?? 0)) * 1.06 || 1;
  return (
    <LineChart
      height={180}
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
      yAxis={[{ width: "auto", min: 0, max: top, label: "MR" }]}
      series={[
        {
          id: "mr",
          label: "Moving range",
          data: p.points.map((pt) => pt.mr),
          curve: "linear",
          showMark: false,
          connectNulls: true,
          color: theme.palette.secondary.main,
          valueFormatter: fmt,
        },
      ]}
    >
      {p.mrBar != null && (
        <ChartsReferenceLine
          y={p.mrBar}
          label="MR̄"
          labelAlign="end"
          lineStyle={{ stroke: theme.palette.text.secondary, strokeDasharray: "2 3" }}
          labelStyle={{ fontSize: 11 }}
        />
      )}
      {p.mrUcl != null && (
        <ChartsReferenceLine
          y={p.mrUcl}
          label="UCL"
          labelAlign="end"
          lineStyle={{ stroke: theme.palette.warning.dark, strokeDasharray: "6 4" }}
          labelStyle={{ fontSize: 11, fill: theme.palette.warning.dark }}
        />
      )}
    </LineChart>
  );
}
