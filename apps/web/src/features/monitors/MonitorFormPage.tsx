import {
  AUDIT_TEXTS,
  MONITOR_MESSAGES,
  MONITOR_FORM_TEXTS as T,
  type TFormMode,
  type TFormMonitorType,
} from "@linewatch/contracts";
import { Alert, Box, Breadcrumbs, Button, Link, Paper, Typography } from "@mui/material";
import { useCallback, useRef, useState } from "react";
import { Link as RouterLink, useBlocker, useNavigate, useParams, useSearchParams } from "react-router";
import { usePageLine, usePlantLine } from "../../shared/data/plants/plant-line";
import { useFeatureFlags } from "../../shared/data/session/queries";
import { QueryState } from "../../shared/ui/QueryState";
import { HistoryButton } from "../audit-log/components/HistoryButton";
import { useMonitor } from "./api/queries";
import { MonitorDiscardDialog } from "./components/form/MonitorFormDialogs";
import { MonitorForm } from "./components/MonitorForm";

/**
 * /monitors/new?type=mvd|svd[&lineId=] (CREATE) and /monitors/:monitorId[?mode=edit] (VIEW, or
 * EDIT) — docs/architecture.md routes. After save or cancel the user returns to the line overview.
 */
export function MonitorFormPage() {
  const { monitorId } = useParams();
  const [search, setSearch] = useSearchParams();
  const navigate = useNavigate();
  const { line } = usePlantLine();
  // Unsaved edits: leaving the page another way than the form's own (a link, the top bar's line,
  // the browser's back) asks first. The form's own ways out (Cancel, after a save) have decided.
  const [hasUnsavedEdits, setUnsavedEdits] = useState(false);
  const leavingByForm = useRef(false);
  const blocker = useBlocker(
    ({ currentLocation, nextLocation }) =>
      hasUnsavedEdits && !leavingByForm.current && currentLocation.pathname !== nextLocation.pathname,
  );
  const leave = useCallback(
    (to: string) => {
      leavingByForm.current = true;
      navigate(to);
    },
    [navigate],
  );
  const guard = (
    <MonitorDiscardDialog
      open={blocker.state === "blocked"}
      onDiscard={() => blocker.proceed?.()}
      onKeepEditing={() => blocker.reset?.()}
    />
  );
  const monitorQ = useMonitor(monitorId ?? null);
  const flags = useFeatureFlags();
  // The page's line decides: a link to another plant's line (or its monitor) switches the top bar.
  usePageLine(monitorId ? monitorQ.data?.monitor_filter.line_uuid : search.get("lineId"));

  if (!monitorId) {
    const type: TFormMonitorType = search.get("type") === "svd" ? "svd" : "mvd";
    const lineId = search.get("lineId") ?? line?.id ?? null;
    const back = () => leave(lineId ? `/lines/${lineId}` : "/");
    return (
      <Page title={T.newPageTitle(type)} lineId={lineId}>
        {guard}
        {type === "mvd" && flags.data && !flags.data.flags.mvdMonitorCreation ? (
          <Alert severity="info">{MONITOR_MESSAGES.mvdCreationDisabled}</Alert>
        ) : lineId ? (
          <MonitorForm
            type={type}
            mode="CREATE"
            lineId={lineId}
            onClose={back}
            onDirtyChange={setUnsavedEdits}
          />
        ) : (
          <Alert severity="info">{T.pickLine}</Alert>
        )}
      </Page>
    );
  }

  const m = monitorQ.data;
  const lineId = m?.monitor_filter.line_uuid ?? null;
  const mode: TFormMode = search.get("mode") === "edit" ? "EDIT" : "VIEW";
  return (
    <Page
      title={m?.monitor_name ?? T.pageFallbackTitle}
      lineId={lineId}
      actions={
        m && (
          <>
            <HistoryButton resource="monitor" items={[{ id: m.monitor_uuid, name: m.monitor_name }]} />
            <HistoryButton
              resource="monitor_rules"
              label={`${AUDIT_TEXTS.resourceLabels.monitor_rules} ${AUDIT_TEXTS.history.toLowerCase()}`}
              items={[{ id: m.monitor_uuid, name: m.monitor_name }]}
            />
          </>
        )
      }
    >
      {guard}
      <QueryState
        isLoading={monitorQ.isLoading}
        error={monitorQ.error}
        onRetry={() => void monitorQ.refetch()}
        notFoundAction={
          <Button color="inherit" size="small" component={RouterLink} to="/">
            {T.backToLines}
          </Button>
        }
        isEmpty={!m}
        empty={<Alert severity="warning">{MONITOR_MESSAGES.notFound}</Alert>}
      >
        {m && m.monitor_type === "cap" && <Alert severity="info">{T.capabilityNotice(m.monitor_name)}</Alert>}
        {m && m.monitor_type !== "cap" && (
          <MonitorForm
            type={m.monitor_type}
            mode={mode}
            monitorId={m.monitor_uuid}
            onClose={() => leave(`/lines/${m.monitor_filter.line_uuid}`)}
            onDirtyChange={setUnsavedEdits}
            // EDIT is kept in the address: a reload, or anything that mounts the form again, stays in it.
            onModeChange={(next) => {
              if (next === "EDIT") setSearch({ mode: "edit" }, { replace: true });
            }}
          />
        )}
      </QueryState>
    </Page>
  );
}

function Page(p: {
  title: string;
  lineId: string | null;
  /** Beside the breadcrumbs: the saved monitor's history. */
  actions?: React.ReactNode;
  children: React.ReactNode;
}) {
  return (
    <Box sx={{ maxWidth: 1200, mx: "auto" }}>
      <Box sx={{ display: "flex", alignItems: "center", gap: 1, mb: 1 }}>
        <Breadcrumbs sx={{ flexGrow: 1 }}>
          {p.lineId && (
            <Link component={RouterLink} to={`/lines/${p.lineId}`} underline="hover">
              {T.lineOverview}
            </Link>
          )}
          {/* The page's title, where the breadcrumbs end. */}
          <Typography component="h1" variant="body1" color="text.primary">
            {p.title}
          </Typography>
        </Breadcrumbs>
        {p.actions}
      </Box>
      <Paper variant="outlined">{p.children}</Paper>
    </Box>
  );
}
