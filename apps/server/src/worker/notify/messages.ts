// What an alert says to Teams (an Adaptive Card 1.4) and to ETQ Reliance (a document): pure.

import { evaluationSummary } from "@linewatch/contracts";

export type AlertFacts = {
  alertId: string;
  lineId: string;
  lineName: string;
  plantName: string;
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
export function topDrivers(details: unknown, max = 3): string[] {
  if (!details || typeof details !== "object") return [];
  const d = details as Record<string, unknown>;
  // mvd: contributions of signals in the worst rows, summed per signal
  if (Array.isArray(d.worstRows)) {
    const sum = new Map<string, number>();
    for (const row of d.worstRows as { topSignals?: { name?: unknown; contribution?: unknown }[] }[]) {
      for (const s of row?.topSignals ?? []) {
        if (typeof s?.name !== "string") continue;
        const c = typeof s.contribution === "number" && Number.isFinite(s.contribution) ? s.contribution : 0;
        sum.set(s.name, (sum.get(s.name) ?? 0) + c);
      }
    }
    return [...sum.entries()]
      .sort((a, b) => b[1] - a[1])
      .slice(0, max)
      .map(([name, c]) => `${name} (contribution ${round(c)})`);
  }
  // svd / cap: the one signal, with how its mean moved when known
  const signal = d.signal as { name?: unknown } | undefined;
  if (typeof signal?.name === "string") {
    const from = d.trainingMean;
    const to = d.evaluationMean;
    if (typeof from === "number" && typeof to === "number") {
      return [`${signal.name} (mean ${round(from)} → ${round(to)})`];
    }
    return [signal.name];
  }
  return [];
}

export const alertLink = (publicUrl: string, f: { lineId: string; alertId: string }) =>
  `${publicUrl.replace(/\/$/, "")}/lines/${encodeURIComponent(f.lineId)}?alert=${encodeURIComponent(f.alertId)}`;

/** Score against threshold in the monitor type's words, as the app shows it (evaluationSummary). */
const scoreText = (f: AlertFacts) => {
  if (f.score == null) return "—";
  const type = f.monitorType === "mvd" || f.monitorType === "svd" ? f.monitorType : "cap";
  const details =
    f.details && typeof f.details === "object" && !Array.isArray(f.details)
      ? (f.details as Record<string, unknown>)
      : null;
  return evaluationSummary(type, { score: f.score, threshold: f.threshold, details }) ?? round(f.score);
};

/** The Adaptive Card (1.4) of an alert; postTeams wraps it in the Workflows message envelope. */
export function alertCard(f: AlertFacts, publicUrl: string): Record<string, unknown> {
  const drivers = topDrivers(f.details);
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
      ...(drivers.length
        ? [
            { type: "TextBlock", text: "Top drivers", weight: "Bolder", wrap: true },
            { type: "TextBlock", text: drivers.map((d) => `- ${d}`).join("\n"), wrap: true },
          ]
        : []),
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
    topDrivers: topDrivers(f.details),
    link: alertLink(publicUrl, f),
  };
}

// ── Retries (design/monitoring.md "Notifications") ──

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
