import {
  LINE_MESSAGES,
  LINE_OVERVIEW_TEXTS,
  lineLabel,
  type TAlert,
  type TEvaluationSeries,
} from "@linewatch/contracts";
import { Alert, Button, Paper, Stack, Typography } from "@mui/material";
import { lazy, useState } from "react";
import { Link as RouterLink, useParams, useSearchParams } from "react-router";
import { ApiError } from "../../shared/api/client";
import { usePageLine } from "../../shared/data/plants/plant-line";
import { useFeatureFlags, useMe } from "../../shared/data/session/queries";
import { useTexts } from "../../shared/i18n/language";
import { MountWhenOpened } from "../../shared/ui/MountWhenOpened";
import { QueryState } from "../../shared/ui/QueryState";
import { useAlertActions } from "../alerts/api/mutations";
import { useLineAlerts } from "../alerts/api/queries";
import { AlertsTable } from "../alerts/components/AlertsTable";
import type { TPreset } from "../capability/capability.view";
import { LazyCapabilityDialog } from "../capability/LazyCapabilityDialog";
import { useLineSignals, useSignalGroups } from "../signals/api/queries";
import { useEvaluationSeries, useLineMonitors } from "./api/queries";
import { MonitorsTable } from "./components/MonitorsTable";
import { ScoresOverTime } from "./components/ScoresOverTime";

// The alert's drawer and the comment and resolve dialogs load with their first opening (issue #17:
// the page loads what it shows).
const AlertDetailDrawer = lazy(() =>
  import("../alerts/components/AlertDetailDrawer").then((m) => ({ default: m.AlertDetailDrawer })),
);
const CommentDialog = lazy(() =>
  import("../alerts/components/CommentDialog").then((m) => ({ default: m.CommentDialog })),
);
const ResolveDialog = lazy(() =>
  import("../alerts/components/ResolveDialog").then((m) => ({ default: m.ResolveDialog })),
);

/** The line overview: its alerts inside the alert viewing window, its monitors, and their scores over time. */
export function LineOverviewPage() {
  const { lineId = "" } = useParams();
  const [params, setParams] = useSearchParams();
  const T = useTexts(LINE_OVERVIEW_TEXTS);
  const LM = useTexts(LINE_MESSAGES);
  // The page's line decides: the top bar follows it, and times are in its plant's time zone.
  const { line, plant, error: lineError } = usePageLine(lineId);
  const mvdAllowed = useFeatureFlags().data?.flags.mvdMonitorCreation ?? false;
  const timeZone = plant?.timeZone ?? Intl.DateTimeFormat().resolvedOptions().timeZone;
  const alerts = useLineAlerts(lineId);
  const activeSignals = useLineSignals(lineId);
  const monitors = useLineMonitors(lineId);
  const me = useMe();
  // The groups' members count towards 'Signals changed' (issue #15); read only when a monitor has groups.
  const hasGroups = monitors.data?.some((m) => m.monitor_filter.signal_group_uuids.length > 0) ?? false;
  const signalGroups = useSignalGroups({
    customerUuid: me.data?.customer.id,
    plantUuid: plant?.id,
    lineUuid: hasGroups ? lineId : null,
  });
  const actions = useAlertActions(lineId);
  const [commentFor, setCommentFor] = useState<TAlert | null>(null);
  const [resolveFor, setResolveFor] = useState<TAlert | null>(null);
  const [preset, setPreset] = useState<TPreset>("day");
  const series = useEvaluationSeries(lineId, preset);
  // A CAP monitor's capability view (its I-MR points) over the period its chart shows.
  const [capabilityFor, setCapabilityFor] = useState<{
    series: TEvaluationSeries;
    period: { from: string; to: string };
  } | null>(null);
  // The open alert is in the URL (?alert=…), so a Teams message can link straight to it.
  const openAlertId = params.get("alert");
  const openAlert = (id: string | null) => setParams(id ? { alert: id } : {}, { replace: !id });

  if (lineError instanceof ApiError && lineError.status === 404)
    return (
      <Stack spacing={2}>
        <Typography variant="h5" component="h1">
          {LM.notFound}
        </Typography>
        <Alert
          severity="warning"
          action={
            <Button color="inherit" size="small" component={RouterLink} to="/">
              {T.backToLines}
            </Button>
          }
        >
          {T.notFoundText}
        </Alert>
      </Stack>
    );

  return (
    <Stack spacing={3}>
      <Typography variant="h5" component="h1">
        {line ? lineLabel(line) : T.line}
      </Typography>
      {line && !line.active && <Alert severity="info">{LM.inactiveOverview}</Alert>}
      <Paper variant="outlined" sx={{ p: 2 }}>
        <Typography variant="h6" component="h2" gutterBottom>
          {T.alerts} {line ? T.alertsWindow(line.alertViewingWindowDays) : ""}
        </Typography>
        <QueryState
          isLoading={alerts.isLoading}
          error={alerts.error}
          onRetry={() => alerts.refetch()}
          isEmpty={alerts.data?.length === 0}
          empty={<Typography color="text.secondary">{T.noAlerts}</Typography>}
        >
          <AlertsTable
            alerts={alerts.data ?? []}
            timeZone={timeZone}
            busy={actions.acknowledge.isPending}
            onOpen={(a) => openAlert(a.id)}
            onAcknowledge={(a) => actions.acknowledge.mutate(a.id)}
            onComment={setCommentFor}
            onResolve={setResolveFor}
          />
        </QueryState>
      </Paper>
      <Paper variant="outlined" sx={{ p: 2 }}>
        <Stack direction="row" spacing={1} sx={{ alignItems: "center", mb: 1 }}>
          <Typography variant="h6" component="h2" sx={{ mr: "auto" }}>
            {T.monitors}
          </Typography>
          {mvdAllowed && (
            <Button
              component={RouterLink}
              to={`/monitors/new?type=mvd&lineId=${lineId}`}
              size="small"
              variant="outlined"
            >
              {T.newMvdMonitor}
            </Button>
          )}
          <Button
            component={RouterLink}
            to={`/monitors/new?type=svd&lineId=${lineId}`}
            size="small"
            variant="outlined"
          >
            {T.newSvdMonitor}
          </Button>
        </Stack>
        <QueryState
          isLoading={monitors.isLoading}
          error={monitors.error}
          onRetry={() => monitors.refetch()}
          isEmpty={monitors.data?.length === 0}
          empty={<Typography color="text.secondary">{T.noMonitors}</Typography>}
        >
          <MonitorsTable
            monitors={monitors.data ?? []}
            timeZone={timeZone}
            activeStations={activeSignals.data}
            signalGroups={signalGroups.data}
            isLineActive={line?.active ?? true}
          />
        </QueryState>
      </Paper>
      <ScoresOverTime
        preset={preset}
        onPreset={setPreset}
        data={series.data}
        isLoading={series.isLoading}
        isChangingPeriod={series.isPlaceholderData && series.isFetching}
        error={series.error}
        onRetry={() => series.refetch()}
        timeZone={timeZone}
        onOpenCapability={(s, period) => setCapabilityFor({ series: s, period })}
      />
      {capabilityFor?.series.monitor.signal && (
        <LazyCapabilityDialog
          lineId={lineId}
          signalId={capabilityFor.series.monitor.signal.id}
          signalName={capabilityFor.series.monitor.signal.name}
          timeZone={timeZone}
          from={capabilityFor.period.from}
          until={capabilityFor.period.to}
          onClose={() => setCapabilityFor(null)}
        />
      )}
      <MountWhenOpened isOpen={commentFor != null}>
        <CommentDialog
          open={commentFor != null}
          busy={actions.comment.isPending}
          onCancel={() => setCommentFor(null)}
          onSave={(comment) =>
            commentFor &&
            actions.comment.mutate(
              { alertId: commentFor.id, comment },
              { onSuccess: () => setCommentFor(null) },
            )
          }
        />
      </MountWhenOpened>
      <MountWhenOpened isOpen={resolveFor != null}>
        <ResolveDialog
          alertId={resolveFor?.id ?? null}
          busy={actions.resolve.isPending}
          onCancel={() => setResolveFor(null)}
          onResolve={(v) =>
            resolveFor &&
            actions.resolve.mutate(
              { alertId: resolveFor.id, ...v },
              {
                onSuccess: () => setResolveFor(null),
                // 409: resolved meanwhile (by itself after clean evaluations, or by someone else).
                onError: (e) => e instanceof ApiError && e.status === 409 && setResolveFor(null),
              },
            )
          }
        />
      </MountWhenOpened>
      <MountWhenOpened isOpen={openAlertId != null}>
        <AlertDetailDrawer alertId={openAlertId} timeZone={timeZone} onClose={() => openAlert(null)} />
      </MountWhenOpened>
    </Stack>
  );
}
