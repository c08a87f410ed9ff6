import {
  ALERT_TEXTS,
  CAPABILITY_MESSAGES,
  MONITOR_DETAILS_DRAWER_WIDTH,
  NO_DATA_ALERT_TEXTS,
  parseEvaluationDetails,
  type TAlertDetail,
  type TCapCalibratedDetails,
} from "@linewatch/contracts";
import CloseIcon from "@mui/icons-material/Close";
import ShowChartIcon from "@mui/icons-material/ShowChart";
import {
  Box,
  Button,
  Chip,
  Divider,
  Drawer,
  IconButton,
  List,
  ListItem,
  ListItemText,
  Skeleton,
  Stack,
  Typography,
} from "@mui/material";
import { lazy, Suspense, useId, useState } from "react";
import { formatDateTime } from "../../../shared/format";
import { useTexts } from "../../../shared/i18n/language";
import { QueryState } from "../../../shared/ui/QueryState";
import { LazyCapabilityDialog } from "../../capability/LazyCapabilityDialog";
import { useAlert } from "../api/queries";
import { AlertStateChip } from "./AlertStateChip";

// The charts (@mui/x-charts) load with the first opened alert, not with the app.
const EvaluationChart = lazy(() => import("./EvaluationChart").then((m) => ({ default: m.EvaluationChart })));
const EvaluationDetailsPanel = lazy(() =>
  import("./EvaluationDetailsPanel").then((m) => ({ default: m.EvaluationDetailsPanel })),
);

/**
 * The signal of a CAP alert's monitor, from its newest evaluation that names it, and the evaluation
 * the capability view shows the figures of: the newest that breached (else the newest).
 */
function capSignalOf(
  a: TAlertDetail,
): { id: string; name: string; evaluation: TCapCalibratedDetails | null } | null {
  if (a.monitor?.type !== "cap") return null;
  let signal: { id: string; name: string } | null = null;
  let newest: TCapCalibratedDetails | null = null;
  for (let i = a.evaluations.length - 1; i >= 0; i--) {
    const e = a.evaluations[i];
    const d = parseEvaluationDetails("cap", e?.details);
    if (d?.kind !== "cap") continue;
    if (!signal && d.signal?.id) signal = { id: d.signal.id, name: d.signal.name ?? "" };
    if (d.method !== "calibrated") continue;
    if (e?.state === "BREACH") return signal && { ...signal, evaluation: d };
    newest ??= d;
  }
  return signal && { ...signal, evaluation: newest };
}

/** One alert: its history, the evaluations of its monitor and the delivery log of its notifications. */
export function AlertDetailDrawer(p: { alertId: string | null; timeZone: string; onClose: () => void }) {
  const alert = useAlert(p.alertId);
  const T = useTexts(ALERT_TEXTS);
  const ND = useTexts(NO_DATA_ALERT_TEXTS);
  const C = useTexts(CAPABILITY_MESSAGES);
  const a = alert.data;
  const fmt = (iso: string) => formatDateTime(iso, p.timeZone);
  const [isCapabilityOpen, setCapabilityOpen] = useState(false);
  const capSignal = a ? capSignalOf(a) : null;
  const titleId = useId();
  return (
    <Drawer
      anchor="right"
      open={p.alertId != null}
      onClose={p.onClose}
      slotProps={{
        paper: {
          role: "dialog",
          "aria-labelledby": titleId,
          sx: { width: MONITOR_DETAILS_DRAWER_WIDTH, maxWidth: "100vw" },
        },
      }}
    >
      <Stack direction="row" sx={{ p: 2, alignItems: "center" }}>
        <Typography id={titleId} variant="h6" component="h2" sx={{ flexGrow: 1 }}>
          {a ? T.drawerTitleOf(a.monitor?.name ?? ND.title) : T.drawerTitle}
        </Typography>
        <IconButton aria-label={T.close} onClick={p.onClose}>
          <CloseIcon />
        </IconButton>
      </Stack>
      <Divider />
      <Box sx={{ p: 2, overflow: "auto" }}>
        <QueryState isLoading={alert.isLoading} error={alert.error} onRetry={() => alert.refetch()}>
          {a && (
            <Stack spacing={3}>
              <Stack direction="row" spacing={2} sx={{ alignItems: "center", flexWrap: "wrap" }}>
                <AlertStateChip state={a.state} />
                <Typography variant="body2">
                  {T.facts({
                    type: a.monitor ? a.monitor.type.toUpperCase() : null,
                    rule: a.rule,
                    count: a.count,
                    openedAt: fmt(a.openedAt),
                  })}
                </Typography>
                {a.cause && <Chip size="small" label={T.cause(a.cause)} />}
                {capSignal && (
                  <Button
                    size="small"
                    startIcon={<ShowChartIcon />}
                    aria-label={C.openFor(capSignal.name)}
                    onClick={() => setCapabilityOpen(true)}
                  >
                    {C.open}
                  </Button>
                )}
              </Stack>
              {capSignal && isCapabilityOpen && (
                <LazyCapabilityDialog
                  lineId={a.lineId}
                  signalId={capSignal.id}
                  signalName={capSignal.name}
                  timeZone={p.timeZone}
                  until={a.lastSeenAt}
                  alertEvaluation={capSignal.evaluation}
                  onClose={() => setCapabilityOpen(false)}
                />
              )}
              <section aria-label={T.history}>
                <Typography variant="subtitle1" component="h3">
                  {T.history}
                </Typography>
                <List dense>
                  {a.events.map((e) => (
                    <ListItem key={e.id} disableGutters>
                      <ListItemText
                        primary={`${T.event[e.kind]}${e.cause ? T.eventCause(e.cause) : ""}${e.comment ? ` — “${e.comment}”` : ""}`}
                        secondary={`${fmt(e.at)}${e.userEmail ? ` · ${e.userEmail}` : ""}`}
                      />
                    </ListItem>
                  ))}
                </List>
              </section>
              {a.summary && !a.monitor && <Typography>{a.summary}</Typography>}
              {a.monitor && <MonitorEvaluations monitor={a.monitor} alert={a} timeZone={p.timeZone} />}
              <section aria-label={T.notifications}>
                <Typography variant="subtitle1" component="h3">
                  {T.notifications}
                </Typography>
                {a.notifications.length === 0 ? (
                  <Typography color="text.secondary">{T.noNotification}</Typography>
                ) : (
                  a.notifications.map((n) => (
                    <Box key={n.channel} sx={{ mb: 1 }}>
                      <Typography variant="body2">
                        {T.channel[n.channel]}: {T.delivery[n.state]}
                        {n.deliveredAt ? T.deliveredAt(fmt(n.deliveredAt)) : ""}
                        {n.lastError ? ` — ${n.lastError}` : ""}
                      </Typography>
                      {n.attempts.map((t) => (
                        <Typography key={t.at} variant="caption" component="div" color="text.secondary">
                          {fmt(t.at)} · {t.httpStatus ?? T.noAnswer}
                          {t.error ? ` · ${t.error}` : ""}
                          {t.durationMs != null ? ` · ${T.durationMs(t.durationMs)}` : ""}
                        </Typography>
                      ))}
                    </Box>
                  ))
                )}
              </section>
            </Stack>
          )}
        </QueryState>
      </Box>
    </Drawer>
  );
}

/** A monitor's alert: the chart of the monitor's evaluations and their details (a no-data alert has none). */
function MonitorEvaluations({
  monitor,
  alert,
  timeZone,
}: {
  monitor: NonNullable<TAlertDetail["monitor"]>;
  alert: TAlertDetail;
  timeZone: string;
}) {
  const T = useTexts(ALERT_TEXTS);
  return (
    <>
      <section aria-label={T.evaluations}>
        <Typography variant="subtitle1" component="h3">
          {T.evaluationsTitle}
        </Typography>
        <Suspense fallback={<Skeleton variant="rectangular" height={260} aria-label={T.loadingChart} />}>
          <EvaluationChart
            type={monitor.type}
            evaluations={alert.evaluations}
            openedAt={alert.openedAt}
            resolvedAt={alert.resolvedAt}
            timeZone={timeZone}
          />
        </Suspense>
      </section>
      <Suspense fallback={null}>
        <EvaluationDetailsPanel
          alertId={alert.id}
          type={monitor.type}
          evaluations={alert.evaluations}
          timeZone={timeZone}
        />
      </Suspense>
    </>
  );
}
