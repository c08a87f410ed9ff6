import type { TAlertEvaluation } from "@linewatch/contracts";
import { Table, TableBody, TableCell, TableHead, TableRow, Typography, useTheme } from "@mui/material";
import { BarChart } from "@mui/x-charts/BarChart";
import { LineChart } from "@mui/x-charts/LineChart";
import { formatDateTime } from "../../../shared/format";
import { latestWithDetails, type TCapDetails, type TMvdDetails, type TSvdDetails } from "./evaluationDetails";

const fmt = (v: number | null | undefined) => (v == null ? "–" : Number(v.toPrecision(4)).toString());

const normalPdf = (x: number, mean: number, sd: number) =>
  Math.exp(-0.5 * ((x - mean) / sd) ** 2) / (sd * Math.sqrt(2 * Math.PI));

/** SVD: training and evaluation distributions as normal curves from the stored means and sds. */
function SvdDistributions({ d }: { d: TSvdDetails }) {
  const theme = useTheme();
  const sds = [d.trainingSd, d.evaluationSd];
  if (sds.some((s) => !(s > 0))) {
    return (
      <Typography variant="body2">
        Training mean {fmt(d.trainingMean)} (sd {fmt(d.trainingSd)}), evaluation mean {fmt(d.evaluationMean)}{" "}
        (sd {fmt(d.evaluationSd)}): a standard deviation of 0 leaves no curve to draw.
      </Typography>
    );
  }
  const lo = Math.min(d.trainingMean - 4 * d.trainingSd, d.evaluationMean - 4 * d.evaluationSd);
  const hi = Math.max(d.trainingMean + 4 * d.trainingSd, d.evaluationMean + 4 * d.evaluationSd);
  const xs = Array.from({ length: 121 }, (_, i) => lo + ((hi - lo) * i) / 120);
  return (
    <>
      <LineChart
        height={220}
        margin={{ left: 8, right: 16 }}
        xAxis={[{ data: xs, scaleType: "linear", label: d.signalName ?? undefined, valueFormatter: fmt }]}
        yAxis={[{ width: 56, valueFormatter: fmt }]}
        series={[
          {
            id: "training",
            label: `Training (n = ${d.m ?? "?"})`,
            data: xs.map((x) => normalPdf(x, d.trainingMean, d.trainingSd)),
            showMark: false,
            area: true,
            color: theme.palette.info.main,
            valueFormatter: fmt,
          },
          {
            id: "evaluation",
            label: `Evaluation (n = ${d.n ?? "?"})`,
            data: xs.map((x) => normalPdf(x, d.evaluationMean, d.evaluationSd)),
            showMark: false,
            area: true,
            color: theme.palette.error.main,
            valueFormatter: fmt,
          },
        ]}
        sx={{ "& path[data-series]": { fillOpacity: 0.25 } }}
      />
      <Typography variant="caption" component="p" color="text.secondary">
        Normal curves drawn from the stored means and standard deviations (the raw values are not stored):
        training mean {fmt(d.trainingMean)}, sd {fmt(d.trainingSd)}; evaluation mean {fmt(d.evaluationMean)},
        sd {fmt(d.evaluationSd)}; W1 {fmt(d.w1)}.
      </Typography>
    </>
  );
}

/** MVD: the top contributing signals of the worst rows of the evaluation set. */
function MvdContributions({ d, timeZone }: { d: TMvdDetails; timeZone: string }) {
  const bars = d.worstRows.flatMap((w) =>
    w.topSignals.map((t) => ({
      label: `${t.name ?? t.id ?? "?"} · ${w.partId ?? (w.ts ? formatDateTime(w.ts, timeZone) : "?")}`,
      contribution: t.contribution,
    })),
  );
  if (bars.length === 0) return <Typography color="text.secondary">No worst rows were recorded.</Typography>;
  return (
    <>
      <BarChart
        layout="horizontal"
        height={60 + bars.length * 28}
        margin={{ right: 16 }}
        dataset={bars}
        yAxis={[{ scaleType: "band", dataKey: "label", width: 220 }]}
        xAxis={[{ label: "Contribution to T²", valueFormatter: fmt }]}
        series={[{ dataKey: "contribution", label: "Contribution", valueFormatter: fmt }]}
        hideLegend
      />
      <Typography variant="caption" component="p" color="text.secondary">
        The {d.worstRows.length} rows with the highest T² (signal · part), each with its top signals (up to
        3). Per-row UCL {fmt(d.ucl)}; {d.exceedances ?? "?"} of {d.n ?? "?"} rows above it; p-value{" "}
        {fmt(d.pValue)} against α {fmt(d.alpha)}.
      </Typography>
    </>
  );
}

/** CAP: the limits used and the capability indices (the values per record are not stored). */
function CapIndices({ d }: { d: TCapDetails }) {
  const list = (xs: number[]) =>
    xs.length === 0
      ? "–"
      : xs.length <= 3
        ? xs.map(fmt).join(", ")
        : `${fmt(Math.min(...xs))} … ${fmt(Math.max(...xs))} (${xs.length} values)`;
  const rows: [string, string][] = [
    ["LSL", fmt(d.lsl)],
    ["LCL", list(d.lcl)],
    ["UCL", list(d.ucl)],
    ["USL", fmt(d.usl)],
    ["Cp", fmt(d.cp)],
    ["Cpk", fmt(d.cpk)],
    ["Pp", fmt(d.pp)],
    ["Ppk", fmt(d.ppk)],
    ["Cpk target", fmt(d.cpkTarget)],
    ["Points outside LCL/UCL", String(d.violations)],
  ];
  return (
    <>
      <Table size="small" aria-label="Limits and indices">
        <TableHead>
          <TableRow>
            <TableCell>{d.signalName ?? "Signal"}</TableCell>
            <TableCell align="right">Value</TableCell>
          </TableRow>
        </TableHead>
        <TableBody>
          {rows.map(([k, v]) => (
            <TableRow
              key={k}
              selected={
                (k === "Ppk" && d.ppk != null && d.cpkTarget != null && d.ppk < d.cpkTarget) ||
                (k.startsWith("Points") && d.violations > 0)
              }
            >
              <TableCell>{k}</TableCell>
              <TableCell align="right">{v}</TableCell>
            </TableRow>
          ))}
        </TableBody>
      </Table>
      <Typography variant="caption" component="p" color="text.secondary">
        Limits and indices of the evaluation set ({d.n ?? "?"} values); the values per record are not stored.
      </Typography>
    </>
  );
}

/** The details of the monitor's latest evaluation that has them, by monitor type. */
export function EvaluationDetailsPanel(p: {
  type: string;
  evaluations: readonly TAlertEvaluation[];
  timeZone: string;
}) {
  const latest = latestWithDetails(p.type, p.evaluations);
  const title =
    p.type === "svd"
      ? "Training and evaluation distributions"
      : p.type === "mvd"
        ? "Top contributing signals of the worst rows"
        : p.type === "cap"
          ? "Control and specification limits, capability"
          : "Details";
  return (
    <section aria-label="Latest evaluation">
      <Typography variant="subtitle1" component="h3">
        {title}
      </Typography>
      {!latest ? (
        <Typography color="text.secondary">No evaluation with details yet.</Typography>
      ) : (
        <>
          <Typography variant="caption" component="p" color="text.secondary">
            Latest evaluation with a result: {formatDateTime(latest.evaluation.slot, p.timeZone)} (
            {latest.evaluation.state.replace("_", " ").toLowerCase()})
          </Typography>
          {p.type === "svd" && <SvdDistributions d={latest.details as TSvdDetails} />}
          {p.type === "mvd" && <MvdContributions d={latest.details as TMvdDetails} timeZone={p.timeZone} />}
          {p.type === "cap" && <CapIndices d={latest.details as TCapDetails} />}
        </>
      )}
    </section>
  );
}
