import type { TCapabilityView } from "@linewatch/contracts";
import { useTheme } from "@mui/material";
import { ChartsReferenceLine } from "@mui/x-charts/ChartsReferenceLine";
import { LineChart, lineClasses } from "@mui/x-charts/LineChart";
import { fmt } from "../capability.view";

/** The values' histogram (every record) with LSL and USL where all records share them. */
export function CapabilityHistogram(p: {
  histogram: NonNullable<TCapabilityView["histogram"]>;
  lsl: number | null;
  usl: number | null;
  signal: string;
}) {
  const theme = useTheme();
  const { edges, counts } = p.histogram;
  const k = counts.length;
  // A step line over the bin edges: bin i's count from edge i to edge i+1 (the last repeated).
  const steps = [...counts, counts[k - 1] ?? 0];
  return (
    <LineChart
      height={220}
      margin={{ left: 8, right: 16 }}
      skipAnimation
      xAxis={[
        {
          data: edges,
          scaleType: "linear",
          min: edges[0],
          max: edges[k],
          label: p.signal,
          valueFormatter: (v: number, ctx) => (ctx.location === "tick" ? fmt(v) : `${fmt(v)} (bin start)`),
        },
      ]}
      yAxis={[{ width: "auto", label: "Records", min: 0 }]}
      series={[
        {
          id: "count",
          label: "Records",
          data: steps,
          curve: "stepAfter",
          area: true,
          showMark: false,
          color: theme.palette.primary.main,
          valueFormatter: (v, ctx) =>
            v == null || ctx.dataIndex >= k
              ? null
              : `${v} records from ${fmt(edges[ctx.dataIndex])} to ${fmt(edges[ctx.dataIndex + 1])}`,
        },
      ]}
      sx={{ [`& .${lineClasses.area}`]: { fillOpacity: 0.35 } }}
    >
      {p.lsl != null && (
        <ChartsReferenceLine
          x={p.lsl}
          label="LSL"
          lineStyle={{ stroke: theme.palette.error.main }}
          labelStyle={{ fontSize: 11, fill: theme.palette.error.main }}
        />
      )}
      {p.usl != null && (
        <ChartsReferenceLine
          x={p.usl}
          label="USL"
          lineStyle={{ stroke: theme.palette.error.main }}
          labelStyle={{ fontSize: 11, fill: theme.palette.error.main }}
        />
      )}
    </LineChart>
  );
}
