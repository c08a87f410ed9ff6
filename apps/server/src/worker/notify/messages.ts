// What an alert says to Teams (an Adaptive Card 1.4) and to ETQ Reliance (a document): pure.

import {
  evaluationDetailLines,
  evaluationSummary,
  formatFigure,
  NO_DATA_ALERT_TEXTS,
  parseEvaluationDetails,
} from "@linewatch/contracts";

export type AlertFacts = {
  alertId: string;
  lineId: string;
  lineName: string;
  plantName: string;
  /** A no-data alert (no monitor): monitorName is NO_DATA_ALERT_TEXTS.title, monitorType "no_data". */
  monitorName: string;
  monitorType: string;
  rule: string;
  score: number | null;
  threshold: number | null;
  openedAt: Date;
  /** The alert's latest evaluation details (statistic-specific), when there is one. */
  details: unknown;
};

const round = (v: number) => (Math.abs(v) >= 100 ? v.toFixed(1) : v.toPrecision(4).replace(/\.?0+$/, ""));

/** The signals that drove the score, strongest first (at most 3), from the evaluation details. */
export function topDrivers(type: string, raw: unknown, max = 3): string[] {
  const d = parseEvaluationDetails(type, raw);
  if (!d) return [];
  // mvd, calibrated, when the means moved more credibly than the structure changed: the signals
  // whose means moved, by their share of T²_mean
  if (d.kind === "mvd" && d.method === "calibrated" && (d.p_mean ?? 1) <= (d.p_struct ?? 1)) {
    return d.meanSignals
      .filter((s) => s.contribution > 0 && s.name != null)
      .slice(0, max)
      .map((s) => `${s.name} (moved ${s.shift >= 0 ? "+" : "−"}${formatFigure(Math.abs(s.shift))} σ)`);
  }
  // mvd: contributions of signals in the worst rows, summed per signal
  if (d.kind === "mvd") {
    const sum = new Map<string, number>();
    for (const row of d.worstRows) {
      for (const s of row.topSignals) {
        if (s.name == null) continue;
        const c = Number.isFinite(s.contribution) ? s.contribution : 0;
        sum.set(s.name, (sum.get(s.name) ?? 0) + c);
      }
    }
    return [...sum.entries()]
      .sort((a, b) => b[1] - a[1])
      .slice(0, max)
      .map(([name, c]) => `${name} (contribution ${round(c)})`);
  }
  // svd: the one signal and how its mean moved; cap: the one signal
  if (d.kind === "svd" && d.signal.name != null)
    return [`${d.signal.name} (mean ${round(d.trainingMean)} → ${round(d.evaluationMean)})`];
  if (d.kind === "cap" && d.signal.name != null) return [d.signal.name];
  return [];
}

export const alertLink = (publicUrl: string, f: { lineId: string; alertId: string }) =>
  `${publicUrl.replace(/\/$/, "")}/lines/${encodeURIComponent(f.lineId)}?alert=${encodeURIComponent(f.alertId)}`;

/** The monitorType of a no-data alert's facts. */
export const NO_DATA_TYPE = "no_data";

/** Score against threshold in the monitor type's words, as the app shows it (evaluationSummary). */
const scoreText = (f: AlertFacts) => {
  if (f.score == null) return "—";
  if (f.monitorType === NO_DATA_TYPE) return NO_DATA_ALERT_TEXTS.summary(f.score, f.threshold ?? 0);
  const type = f.monitorType === "mvd" || f.monitorType === "svd" ? f.monitorType : "cap";
  const details =
    f.details && typeof f.details === "object" && !Array.isArray(f.details)
      ? (f.details as Record<string, unknown>)
      : null;
  return evaluationSummary(type, { score: f.score, threshold: f.threshold, details }) ?? round(f.score);
};

/**
 * What the evaluation found, in the sentences the alert drawer shows (contracts
 * evaluationDetailLines): the MVD part that fired with its p-value and the moved signals, SVD's
 * VIF, CAP's control rule with its points or Ppk's bound against the target. Times in UTC.
 */
export function findings(type: string, raw: unknown): string[] {
  const d = parseEvaluationDetails(type, raw);
  return d
    ? evaluationDetailLines(d, { formatTime: (iso) => iso.replace("T", " ").replace(/\.\d+Z$/, " UTC") })
    : [];
}

/** A bold title and its lines as a Markdown list, or nothing without lines. */
const bulletList = (title: string, lines: readonly string[]) =>
  lines.length
    ? [
        { type: "TextBlock", text: title, weight: "Bolder", wrap: true },
        { type: "TextBlock", text: lines.map((line) => `- ${line}`).join("\n"), wrap: true },
      ]
    : [];

/** The Adaptive Card (1.4) of an alert; postTeams wraps it in the Workflows message envelope. */
export function alertCard(f: AlertFacts, publicUrl: string): Record<string, unknown> {
  const drivers = topDrivers(f.monitorType, f.details);
  const found = findings(f.monitorType, f.details);
  return {
    $schema: "http://adaptivecards.io/schemas/adaptive-card.json",
    type: "AdaptiveCard",
    version: "1.4",
    body: [
      {
        type: "TextBlock",
        text: `Linewatch alert: ${f.monitorName}`,
        weight: "Bolder",
        size: "Medium",
        color: "Attention",
        wrap: true,
      },
      {
        type: "FactSet",
        facts: [
          { title: "Line", value: `${f.lineName} (${f.plantName})` },
          { title: "Monitor", value: `${f.monitorName} (${f.monitorType.toUpperCase()})` },
          { title: "Rule", value: f.rule },
          { title: "Score", value: scoreText(f) },
          { title: "Opened", value: f.openedAt.toISOString() },
        ],
      },
      ...bulletList("What the evaluation found", found),
      ...bulletList("Top drivers", drivers),
    ],
    actions: [{ type: "Action.OpenUrl", title: "Open alert", url: alertLink(publicUrl, f) }],
  };
}

/** The ETQ Reliance document created for an alert (one per alert; externalId is the alert id). */
export function etqDocument(f: AlertFacts, publicUrl: string): Record<string, unknown> {
  return {
    title: `Linewatch alert: ${f.monitorName} on ${f.lineName}`,
    externalId: f.alertId,
    source: "Linewatch",
    plant: f.plantName,
    line: f.lineName,
    monitor: f.monitorName,
    monitorType: f.monitorType,
    rule: f.rule,
    score: f.score,
    threshold: f.threshold,
    openedAt: f.openedAt.toISOString(),
    topDrivers: topDrivers(f.monitorType, f.details),
    link: alertLink(publicUrl, f),
  };
}

// ── Retries (docs/monitoring.md "Notifications") ──

export const MAX_ATTEMPTS = 10;
const BASE_DELAY_MS = 5_000;
const MAX_DELAY_MS = 3_600_000;

/**
 * The wait before the next attempt after `attempts` failed ones: 5 s × 2^(attempts − 1), at most
 * 1 h; a Retry-After from the far end wins (also capped at 1 h).
 */
export function retryDelayMs(attempts: number, retryAfterMs: number | null): number {
  if (retryAfterMs != null) return Math.min(Math.max(retryAfterMs, 0), MAX_DELAY_MS);
  return Math.min(BASE_DELAY_MS * 2 ** Math.max(attempts - 1, 0), MAX_DELAY_MS);
}
