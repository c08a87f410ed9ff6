import {
  ALERT_TEXTS,
  evaluationDetailLines,
  formatPValue,
  type TAlertEvaluation,
  type TEvaluationDetails,
  type TMvdWorstRow,
} from "@linewatch/contracts";
import { Typography, useTheme } from "@mui/material";
import { BarChart } from "@mui/x-charts/BarChart";
import { useId } from "react";
import { formatDateTime } from "../../../shared/format";
import { useTexts } from "../../../shared/i18n/language";
import { QueryState } from "../../../shared/ui/QueryState";
import { useEvaluationValues } from "../api/queries";
import { CapValuesChart } from "./CapValuesChart";
import { evaluationToShow, type TCapView, type TMvdView, type TSvdView } from "./evaluationDetails";
import { SvdValuesHistogram } from "./SvdValuesHistogram";

const fmt = (v: number | null | undefined) => (v == null ? "–" : Number(v.toPrecision(4)).toString());

/** MVD: the top contributing signals of the worst rows of the evaluation set. */
function MvdContributions({ d, timeZone }: { d: TMvdView; timeZone: string }) {
  const theme = useTheme();
  const captionId = useId();
  const rowName = (w: TMvdWorstRow) => w.partId ?? (w.ts ? formatDateTime(w.ts, timeZone) : "?");
  // One color per signal, so a signal driving several rows reads as the same bar color.
  const names = [...new Set(d.worstRows.flatMap((w) => w.topSignals.map((t) => t.name ?? t.id ?? "?")))];
  const palette = [
    theme.palette.primary.main,
    theme.palette.warning.main,
    theme.palette.success.main,
    theme.palette.secondary.main,
    theme.palette.info.dark,
    theme.palette.error.light,
  ];
  const bars = d.worstRows.flatMap((w) =>
    w.topSignals.map((t) => {
      const signal = t.name ?? t.id ?? "?";
      return {
        label: `${rowName(w)} · ${signal}`,
        color: palette[names.indexOf(signal) % palette.length] as string,
        contribution: t.contribution,
      };
    }),
  );
  if (bars.length === 0) return <Typography color="text.secondary">No worst rows were recorded.</Typography>;
  return (
    <figure style={{ margin: 0 }} aria-labelledby={captionId}>
      <BarChart
        layout="horizontal"
        height={60 + bars.length * 28}
        margin={{ right: 24 }}
        dataset={bars}
        yAxis={[
          {
            scaleType: "band",
            dataKey: "label",
            width: 240,
            colorMap: { type: "ordinal", values: bars.map((b) => b.label), colors: bars.map((b) => b.color) },
          },
        ]}
        xAxis={[{ label: "Contribution to the row's T²", valueFormatter: fmt }]}
        series={[{ dataKey: "contribution", label: "Contribution", valueFormatter: fmt }]}
        hideLegend
      />
      <Typography id={captionId} variant="caption" component="figcaption" color="text.secondary">
        Top contributing signals of the {d.worstRows.length} rows with the highest T² (part · signal; up to 3
        signals each, one color per signal):{" "}
        {d.worstRows
          .map(
            (w) =>
              `${rowName(w)} T² ${fmt(w.t2)}${w.ts && w.partId ? ` at ${formatDateTime(w.ts, timeZone)}` : ""}`,
          )
          .join("; ")}
        .{" "}
        {d.ucl != null
          ? `Per-row UCL ${fmt(d.ucl)}; ${d.exceedances ?? "?"} of ${d.n} rows above it; p-value ${fmt(d.pValue)} against α ${fmt(d.alpha)}.`
          : `p-value ${d.pValue == null ? "–" : formatPValue(d.pValue)} against α ${fmt(d.alpha)}.`}
      </Typography>
    </figure>
  );
}

/**
 * The evaluation in sentences (contracts evaluationDetailLines, shared with the Teams card): which
 * MVD part fired with its p-value and the moved signals, SVD's VIF and shape adjustment, CAP's
 * control hits with their points or Ppk's bound against the target.
 */
function DetailLines({ details, timeZone }: { details: TEvaluationDetails; timeZone: string }) {
  const T = useTexts(ALERT_TEXTS);
  const lines = evaluationDetailLines(details, { formatTime: (iso) => formatDateTime(iso, timeZone) });
  if (lines.length === 0) return null;
  return (
    <ul aria-label={T.whatFound} style={{ margin: "4px 0", paddingLeft: 20 }}>
      {lines.map((line) => (
        <Typography key={line} component="li" variant="body2">
          {line}
        </Typography>
      ))}
    </ul>
  );
}

/** SVD and CAP: the values the evaluation judged, read again from its window. */
function EvaluationValues(p: {
  alertId: string;
  evaluation: TAlertEvaluation;
  type: "svd" | "cap";
  details: TSvdView | TCapView;
  timeZone: string;
}) {
  const T = useTexts(ALERT_TEXTS);
  const values = useEvaluationValues(p.alertId, p.evaluation.id);
  const v = values.data;
  return (
    <QueryState
      isLoading={values.isLoading}
      error={values.error}
      onRetry={() => values.refetch()}
      errorTitle={T.valuesError}
    >
      {v?.type === "svd" && p.type === "svd" && (
        <SvdValuesHistogram values={v} details={p.details as TSvdView} timeZone={p.timeZone} />
      )}
      {v?.type === "cap" && p.type === "cap" && (
        <CapValuesChart values={v} details={p.details as TCapView} timeZone={p.timeZone} />
      )}
    </QueryState>
  );
}

/** The details of the alert's newest breach (else of the latest evaluation that has them), by monitor type. */
export function EvaluationDetailsPanel(p: {
  alertId: string;
  type: string;
  evaluations: readonly TAlertEvaluation[];
  timeZone: string;
}) {
  const T = useTexts(ALERT_TEXTS);
  const latest = evaluationToShow(p.type, p.evaluations);
  const title =
    p.type === "svd" || p.type === "mvd" || p.type === "cap" ? T.detailsTitle[p.type] : T.detailsTitle.other;
  return (
    <section aria-label={T.evaluationDetails}>
      <Typography variant="subtitle1" component="h3">
        {title}
      </Typography>
      {!latest ? (
        <Typography color="text.secondary">{T.noDetails}</Typography>
      ) : (
        <>
          <Typography variant="caption" component="p" color="text.secondary">
            {latest.isBreach
              ? T.newestBreach(formatDateTime(latest.evaluation.slot, p.timeZone))
              : T.noBreach(
                  formatDateTime(latest.evaluation.slot, p.timeZone),
                  T.evaluationState[latest.evaluation.state],
                )}
          </Typography>
          <DetailLines details={latest.details.parsed} timeZone={p.timeZone} />
          {(p.type === "svd" || p.type === "cap") && (
            <EvaluationValues
              alertId={p.alertId}
              evaluation={latest.evaluation}
              type={p.type}
              details={latest.details as TSvdView | TCapView}
              timeZone={p.timeZone}
            />
          )}
          {p.type === "mvd" && <MvdContributions d={latest.details as TMvdView} timeZone={p.timeZone} />}
        </>
      )}
    </section>
  );
}
