import { formatPValue, type TCapEvaluationRecord, type TCapEvaluationValues } from "@linewatch/contracts";
import { Box, Stack, Table, TableBody, TableCell, TableRow, Typography, useTheme } from "@mui/material";
import { ChartsReferenceLine } from "@mui/x-charts/ChartsReferenceLine";
import { LineChart, type LineSeries, lineClasses } from "@mui/x-charts/LineChart";
import { useId } from "react";
import { formatDateTime, tickLabel, tickSpanOf } from "../../../shared/format";
import type { TCapView } from "./evaluationDetails";
import { ValuesNotes } from "./ValuesNotes";

const fmt = (v: number | null | undefined) => (v == null ? "–" : Number(v.toPrecision(4)).toString());
const LIMITS = [
  { key: "usl", label: "USL", spec: true },
  { key: "ucl", label: "UCL", spec: false },
  { key: "lcl", label: "LCL", spec: false },
  { key: "lsl", label: "LSL", spec: true },
] as const;

/** One value for every record that has the limit (a reference line), or per record (a step line). */
function limitLine(records: readonly TCapEvaluationRecord[], key: (typeof LIMITS)[number]["key"]) {
  const values = records.map((r) => r[key]);
  const distinct = new Set(values.filter((v): v is number => v != null));
  if (distinct.size === 0) return null;
  if (distinct.size === 1) return { constant: [...distinct][0] as number, values };
  return { constant: null, values };
}

/** A limit that varies between records, as its lowest and highest value. */
function rangeOf(values: readonly (number | null)[]) {
  const xs = values.filter((v): v is number => v != null);
  return `${fmt(Math.min(...xs))}–${fmt(Math.max(...xs))}`;
}

const isOutsideControl = (r: TCapEvaluationRecord) =>
  r.value != null && ((r.lcl != null && r.value < r.lcl) || (r.ucl != null && r.value > r.ucl));
const isOutsideSpec = (r: TCapEvaluationRecord) =>
  r.value != null && ((r.lsl != null && r.value < r.lsl) || (r.usl != null && r.value > r.usl));

/**
 * CAP: the evaluation set's values over time (plant time zone) against the limits their records'
 * formulas gave — LCL/UCL (control) and LSL/USL (specification) — with the capability indices
 * beside the chart. Points outside [LCL, UCL] are marked.
 */
export function CapValuesChart(p: { values: TCapEvaluationValues; details: TCapView; timeZone: string }) {
  const theme = useTheme();
  const captionId = useId();
  const records = p.values.records;
  const signal = p.values.signal?.name ?? p.details.signalName ?? "Value";
  const times = records.map((r) => new Date(r.ts));
  const span = tickSpanOf(times);
  const lines = LIMITS.map((l) => ({ ...l, line: limitLine(records, l.key) }));
  const colorOf = (spec: boolean) => (spec ? theme.palette.error.main : theme.palette.warning.dark);
  const outside = records.map((r) => (isOutsideControl(r) || isOutsideSpec(r) ? r.value : null));
  const outsideControl = records.filter(isOutsideControl).length;
  const outsideSpec = records.filter(isOutsideSpec).length;
  const unit = p.values.signal?.unit ? ` (${p.values.signal.unit})` : "";
  // The y range holds every value and every limit, so a limit line is never off the chart.
  const all = [
    ...records.flatMap((r) => [r.value, r.lsl, r.lcl, r.ucl, r.usl]),
    p.values.limits.lsl,
    p.values.limits.usl,
  ].filter((v): v is number => v != null);
  const lo = Math.min(...all);
  const hi = Math.max(...all);
  const pad = (hi - lo || Math.abs(hi) || 1) * 0.06;
  const varying: LineSeries[] = lines.flatMap((l) =>
    l.line && l.line.constant == null
      ? [
          {
            id: l.key,
            label: l.label,
            data: l.line.values,
            curve: "stepAfter" as const,
            showMark: false,
            color: colorOf(l.spec),
            valueFormatter: fmt,
          },
        ]
      : [],
  );
  const d = p.values.indices;
  const indexRows: [string, string, boolean][] = [
    ["Cp", fmt(d.cp), false],
    ["Cpk", fmt(d.cpk), d.cpk != null && d.cpkTarget != null && d.cpk < d.cpkTarget],
    ["Pp", fmt(d.pp), false],
    ["Ppk", fmt(d.ppk), d.ppk != null && d.cpkTarget != null && d.ppk < d.cpkTarget],
    ["Cpk target", fmt(d.cpkTarget), false],
    ...lines.map((l): [string, string, boolean] => [
      l.label,
      l.line == null ? "–" : l.line.constant != null ? fmt(l.line.constant) : rangeOf(l.line.values),
      false,
    ]),
    ["Outside LCL/UCL", String(outsideControl), outsideControl > 0],
    ["Outside LSL/USL", String(outsideSpec), outsideSpec > 0],
  ];
  // The evaluation's test (issue 29): the judged points, each part's p-value and the decision.
  const test = p.details.test;
  if (test) {
    const pv = (x: number | null) => (x == null ? "–" : formatPValue(x));
    indexRows.push(
      ["Judged points", String(test.judgedCount), false],
      ["p control", pv(test.pControl), test.isControlBreach],
      ["p capability", pv(test.pCapability), false],
      [`p vs α ${fmt(test.alpha)}`, pv(test.pValue), test.pValue != null && test.pValue < test.alpha],
    );
  }
  if (records.length === 0) {
    return (
      <Typography color="text.secondary">
        No records of {signal} were found up to this evaluation's newest record.
      </Typography>
    );
  }
  return (
    <figure style={{ margin: 0 }} aria-labelledby={captionId}>
      <Stack direction="row" spacing={1} sx={{ alignItems: "flex-start" }}>
        <Box sx={{ flexGrow: 1, minWidth: 0 }}>
          <LineChart
            height={280}
            margin={{ left: 8, right: 40 }}
            xAxis={[
              {
                data: times,
                scaleType: "utc",
                tickNumber: 5,
                valueFormatter: (t: Date, ctx) =>
                  ctx.location === "tick" ? tickLabel(t, p.timeZone, span) : formatDateTime(t, p.timeZone),
              },
            ]}
            yAxis={[{ width: "auto", min: lo - pad, max: hi + pad, label: `${signal}${unit}` }]}
            series={[
              {
                id: "value",
                label: signal,
                data: records.map((r) => r.value),
                curve: "linear",
                showMark: records.length <= 60,
                color: theme.palette.primary.main,
                valueFormatter: (v, ctx) =>
                  v == null ? "–" : `${fmt(v)} (part ${records[ctx.dataIndex]?.partId ?? "?"})`,
              },
              ...(outsideControl + outsideSpec > 0
                ? [
                    {
                      id: "outside",
                      label: "Outside a limit",
                      data: outside,
                      showMark: ({ index }: { index: number }) => outside[index] != null,
                      shape: "diamond" as const,
                      color: theme.palette.error.main,
                      valueFormatter: (v: number | null, ctx: { dataIndex: number }) => {
                        const r = records[ctx.dataIndex];
                        if (v == null || !r) return null;
                        return [
                          isOutsideControl(r) && "outside LCL/UCL",
                          isOutsideSpec(r) && "outside LSL/USL",
                        ]
                          .filter(Boolean)
                          .join(", ");
                      },
                    },
                  ]
                : []),
              ...varying,
            ]}
            sx={{
              [`& .${lineClasses.line}[data-series="outside"]`]: { display: "none" },
              [`& .${lineClasses.line}[data-series="lcl"], & .${lineClasses.line}[data-series="ucl"]`]: {
                strokeDasharray: "6 4",
              },
            }}
          >
            {lines.map((l) =>
              l.line?.constant != null ? (
                <ChartsReferenceLine
                  key={l.key}
                  y={l.line.constant}
                  label={l.label}
                  labelAlign="end"
                  lineStyle={{ stroke: colorOf(l.spec), strokeDasharray: l.spec ? undefined : "6 4" }}
                  labelStyle={{ fontSize: 11, fill: colorOf(l.spec) }}
                />
              ) : null,
            )}
          </LineChart>
        </Box>
        <Table size="small" aria-label="Limits and indices" sx={{ width: 190, flexShrink: 0 }}>
          <TableBody>
            {indexRows.map(([k, v, isBad]) => (
              <TableRow key={k} selected={isBad}>
                <TableCell sx={{ py: 0.5, whiteSpace: "nowrap" }}>{k}</TableCell>
                <TableCell sx={{ py: 0.5, whiteSpace: "nowrap" }} align="right">
                  {v}
                </TableCell>
              </TableRow>
            ))}
          </TableBody>
        </Table>
      </Stack>
      <Typography id={captionId} variant="caption" component="figcaption" color="text.secondary">
        Values of {signal}
        {unit} against the control limits (LCL/UCL, dashed) and the specification limits (LSL/USL): the{" "}
        {records.length} records of the evaluation set
        {p.values.evaluationFrom ? ` from ${formatDateTime(p.values.evaluationFrom, p.timeZone)}` : ""}, times
        in {p.timeZone}. Diamonds: values outside a limit; a limit that differs between records (by model
        number) is a step line. Cp/Cpk/Pp/Ppk as the evaluation computed them; highlighted when below the Cpk
        target.
      </Typography>
      <ValuesNotes values={p.values} />
    </figure>
  );
}
