import { ALERT_NO_CAUSE } from "./alerts.js";

// The alerts' words on the line overview (not in the spec): the table, the state chip, the
// alert's drawer with its history, chart and notifications, and the comment and resolve dialogs.
// The server's answers are ALERT_MESSAGES; the evaluation's sentences come from
// evaluation-summary.ts.

export const ALERT_TEXTS = {
  alertsLabel: "Alerts",
  state: { OPEN: "Open", ACKNOWLEDGED: "Acknowledged", RESOLVED: "Resolved" },
  columns: {
    state: "State",
    monitor: "Monitor",
    type: "Type",
    opened: (timeZone: string) => `Opened (${timeZone})`,
    lastSeen: "Last seen",
    count: "Count",
    latest: "Latest evaluation",
    actions: "Actions",
  },
  details: "Details",
  acknowledge: "Acknowledge",
  comment: "Comment",
  resolve: "Resolve",
  // The drawer
  drawerTitle: "Alert",
  drawerTitleOf: (what: string) => `Alert — ${what}`,
  close: "Close",
  facts: (f: { type: string | null; rule: string; count: number; openedAt: string }) =>
    `${f.type ? `${f.type} · ` : ""}rule ${f.rule} · fired ${f.count}× · opened ${f.openedAt}`,
  cause: (cause: string) => `Cause: ${cause}`,
  history: "History",
  event: {
    OPENED: "Opened",
    FIRED: "Fired again",
    ACKNOWLEDGED: "Acknowledged",
    COMMENTED: "Comment",
    RESOLVED: "Resolved",
    AUTO_RESOLVED: "Resolved by itself (3 evaluations without a breach)",
  },
  eventCause: (cause: string) => ` — cause: ${cause}`,
  notifications: "Notifications",
  noNotification: "No notification: the line had no Teams or ETQ Reliance channel when this alert opened.",
  channel: { teams: "Microsoft Teams", etq: "ETQ Reliance" },
  delivery: { PENDING: "pending", DELIVERED: "delivered", FAILED: "failed" },
  deliveredAt: (at: string) => ` at ${at}`,
  noAnswer: "no answer",
  durationMs: (ms: number) => `${ms} ms`,
  evaluations: "Evaluations",
  evaluationsTitle: "Evaluations of the monitor",
  loadingChart: "Loading the chart",
  // The evaluations chart
  noEvaluations: "No evaluations yet.",
  breach: "Breach",
  breachPoint: "breach",
  latest: (summary: string) => `Latest: ${summary}`,
  latestNoData: (reason: string) => `Latest: no data — ${reason}.`,
  /** What the chart's score and threshold are, per monitor type. */
  chartCaption: {
    svd: "Score: the Wasserstein distance between the training and evaluation sets, scaled; a breach is a score above the threshold.",
    cap: "Score: the upper confidence bound of the evaluation set's Ppk (Ppk itself for evaluations before the bound); threshold: the Cpk target. A breach is the bound below the target, or control signals on the new points more extreme than chance gives at the alert threshold (before issue 29: any new point that fired a control rule).",
    mvd: "Score: the p-value of the smaller of two tests, means moved and parts fitting the training pattern worse (log scale); threshold: α. A breach is a p-value below α.",
  },
  shaded: (isResolved: boolean) =>
    `Shaded: the alert, from its opening to ${isResolved ? "its resolution" : "now"}.`,
  chartCounts: (n: number, breaches: number, noData: number, timeZone: string) =>
    `${n} evaluations, ${breaches} ${breaches === 1 ? "breach" : "breaches"}${noData > 0 ? `, ${noData} without a score (no data or error)` : ""}; times in ${timeZone}.`,
  // The details panel's frame
  detailsTitle: {
    svd: "Training and evaluation distributions",
    mvd: "Top contributing signals of the worst rows",
    cap: "Values against the control and specification limits, capability",
    other: "Details",
  },
  evaluationDetails: "Evaluation details",
  noDetails: "No evaluation with details yet.",
  newestBreach: (at: string) => `Newest breach of the alert: the evaluation of ${at}`,
  noBreach: (at: string, state: string) =>
    `No breach with details; latest evaluation with a result: ${at} (${state})`,
  evaluationState: { OK: "ok", BREACH: "breach", NO_DATA: "no data", ERROR: "error" },
  whatFound: "What the evaluation found",
  valuesError: "The evaluation's values could not be read",
  // The dialogs
  commentTitle: "Comment on the alert",
  commentLabel: "Comment",
  commentCount: (n: number, max: number) => `${n} / ${max}`,
  cancel: "Cancel",
  addComment: "Add comment",
  resolveTitle: "Resolve the alert",
  causeLabel: "Cause",
  noCause: ALERT_NO_CAUSE,
  causeHelpWithModes: `Pick a failure mode or describe the cause (or '${ALERT_NO_CAUSE}')`,
  causeHelp: `Describe the cause (or pick '${ALERT_NO_CAUSE}')`,
} as const;
