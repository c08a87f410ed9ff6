import type { TSvdEvaluationValues } from "@linewatch/contracts";
import { Typography, useTheme } from "@mui/material";
import { ChartsReferenceLine } from "@mui/x-charts/ChartsReferenceLine";
import { LineChart, lineClasses } from "@mui/x-charts/LineChart";
import { useId } from "react";
import { formatDateTime } from "../../../shared/format";
import type { TSvdDetails } from "./evaluationDetails";
import { sharedBins } from "./histogram";
import { ValuesNotes } from "./ValuesNotes";

const fmt = (v: number | null | undefined) => (v == null ? "–" : Number(v.toPrecision(4)).toString());
const mean = (xs: readonly number[]) => (xs.length ? xs.reduce((s, x) => s + x, 0) / xs.length : null);

/**
 * SVD: the training and evaluation values of the signal as histograms on shared bins, drawn over
 * each other as a share of each set (the sets differ in size), with both means marked.
 */
export function SvdValuesHistogram(p: {
  values: TSvdEvaluationValues;
  details: TSvdDetails;
  timeZone: string;
}) {
  const theme = useTheme();
  const captionId = useId();
  const { training, evaluation } = p.values;
  const signal = p.values.signal?.name ?? p.details.signalName ?? "the signal";
  const unit = p.values.signal?.unit ? ` (${p.values.signal.unit})` : "";
  const unitAfter = p.values.signal?.unit ? ` ${p.values.signal.unit}` : "";
  if (training.length === 0 && evaluation.length === 0) {
    return (
      <Typography color="text.secondary">
        No values of {signal} were found up to this evaluation's newest record.
      </Typography>
    );
  }
  const bins = sharedBins(training, evaluation);
  const k = bins.edges.length - 1;
  // A step line over the bin edges: bin i's height from edge i to edge i+1 (the last repeated).
  const steps = (xs: number[]) => [...xs, xs[k - 1] ?? 0];
  const binLabel = (i: number) => (i >= k ? "" : `${fmt(bins.edges[i])} to ${fmt(bins.edges[i + 1])}`);
  const tooltip = (set: 0 | 1) => (v: number | null, ctx: { dataIndex: number }) =>
    v == null || ctx.dataIndex >= k
      ? null
      : `${fmt(v)} % (${bins.counts[set][ctx.dataIndex]} values in ${binLabel(ctx.dataIndex)})`;
  const width = (bins.edges[1] as number) - (bins.edges[0] as number);
  const trainingMean = mean(training);
  const evaluationMean = mean(evaluation);
  const from = (iso: string | null) => (iso ? ` from ${formatDateTime(iso, p.timeZone)}` : "");
  return (
    <figure style={{ margin: 0 }} aria-labelledby={captionId}>
      <LineChart
        height={240}
        margin={{ left: 8, right: 16 }}
        xAxis={[
          {
            data: bins.edges,
            scaleType: "linear",
            min: bins.edges[0],
            max: bins.edges[k],
            label: `${signal}${unit}`,
            valueFormatter: (v: number, ctx) => (ctx.location === "tick" ? fmt(v) : `${fmt(v)} (bin start)`),
          },
        ]}
        yAxis={[{ width: "auto", label: "% of set", min: 0 }]}
        series={[
          {
            id: "training",
            label: `Training (${training.length})`,
            data: steps(bins.percents[0]),
            curve: "stepAfter",
            area: true,
            showMark: false,
            color: theme.palette.info.main,
            valueFormatter: tooltip(0),
          },
          {
            id: "evaluation",
            label: `Evaluation (${evaluation.length})`,
            data: steps(bins.percents[1]),
            curve: "stepAfter",
            area: true,
            showMark: false,
            color: theme.palette.error.main,
            valueFormatter: tooltip(1),
          },
        ]}
        sx={{ [`& .${lineClasses.area}`]: { fillOpacity: 0.3 } }}
      >
        {trainingMean != null && (
          <ChartsReferenceLine
            x={trainingMean}
            lineStyle={{ stroke: theme.palette.info.dark, strokeDasharray: "4 3" }}
          />
        )}
        {evaluationMean != null && (
          <ChartsReferenceLine
            x={evaluationMean}
            lineStyle={{ stroke: theme.palette.error.dark, strokeDasharray: "4 3" }}
          />
        )}
      </LineChart>
      <Typography id={captionId} variant="caption" component="figcaption" color="text.secondary">
        {`Training and evaluation values of ${signal}${unit}: each bin's share of its set (${k} ${k === 1 ? "bin" : "bins"} of width ${fmt(width)}); dashed lines: the means (training ${fmt(trainingMean)}, evaluation ${fmt(evaluationMean)}). Training: ${training.length} values${from(p.values.trainingFrom)}; evaluation: ${evaluation.length} values${from(p.values.evaluationFrom)}. W1 ${fmt(p.details.w1)}${unitAfter}, training sd ${fmt(p.details.trainingSd)}${unitAfter}.`}
      </Typography>
      <ValuesNotes values={p.values} />
    </figure>
  );
}
