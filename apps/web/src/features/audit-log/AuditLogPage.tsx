import { AUDIT_PAGE_SIZE, AUDIT_TEXTS, SERVER_MESSAGES } from "@linewatch/contracts";
import FileDownload from "@mui/icons-material/FileDownload";
import { Alert, Button, Stack, Typography } from "@mui/material";
import { useState } from "react";
import { useSearchParams } from "react-router";
import { usePlantLine } from "../../shared/data/plants/plant-line";
import { useMe } from "../../shared/data/session/queries";
import { PageLoading } from "../../shared/ui/PageLoading";
import { QueryState } from "../../shared/ui/QueryState";
import { useSnackbar } from "../../shared/ui/SnackbarProvider";
import { useUsers } from "../settings/users/api/queries";
import { downloadAuditCsv, useAuditLog } from "./api/queries";
import { canReadAuditLog } from "./audit-log.access";
import { auditOffset, auditViewFromParams, auditViewToParams, type TAuditFilter } from "./audit-log.filters";
import { AuditEntriesTable } from "./components/AuditEntriesTable";
import { AuditFilters } from "./components/AuditFilters";

/**
 * The audit log (issue 18 §2): every configuration change of the customer, newest first, for
 * administrators (and provider staff acting for the customer). Filters and page are in the
 * address, so a link reproduces the view; the export takes the same filters.
 */
export function AuditLogPage() {
  const meQ = useMe();
  const me = meQ.data;
  const isAllowed = !!me && canReadAuditLog(me);
  if (meQ.isLoading) return <PageLoading />;
  if (!isAllowed)
    return (
      <Stack spacing={2}>
        <Typography variant="h5" component="h1">
          {AUDIT_TEXTS.title}
        </Typography>
        <Alert severity="error">{SERVER_MESSAGES.forbidden}</Alert>
      </Stack>
    );
  return <AuditLog />;
}

function AuditLog() {
  const [params, setParams] = useSearchParams();
  const { filter, page } = auditViewFromParams(params);
  const { plant } = usePlantLine();
  const timeZone = plant?.timeZone ?? "UTC";
  const logQ = useAuditLog(filter, auditOffset(page));
  const usersQ = useUsers();
  const snackbar = useSnackbar();
  const [isExporting, setExporting] = useState(false);

  const setView = (next: { filter: TAuditFilter; page: number }) => setParams(auditViewToParams(next));
  const handleExport = async () => {
    setExporting(true);
    try {
      await downloadAuditCsv(filter);
    } catch (err) {
      snackbar(err instanceof Error ? err.message : String(err), { severity: "error" });
    } finally {
      setExporting(false);
    }
  };

  const total = logQ.data?.total ?? 0;
  const lastPage = Math.max(1, Math.ceil(total / AUDIT_PAGE_SIZE));
  return (
    <Stack spacing={2}>
      <Stack direction="row" spacing={2} sx={{ alignItems: "center" }}>
        <Typography variant="h5" component="h1" sx={{ flexGrow: 1 }}>
          {AUDIT_TEXTS.title}
        </Typography>
        <Button startIcon={<FileDownload />} disabled={isExporting} onClick={handleExport}>
          {AUDIT_TEXTS.exportCsv}
        </Button>
      </Stack>
      <AuditFilters
        filter={filter}
        users={usersQ.data ?? []}
        timeZone={timeZone}
        onChange={(f) => setView({ filter: f, page: 1 })}
      />
      <Typography variant="body2" color="text.secondary">
        Times in {timeZone}
        {plant ? ` (${plant.name})` : ""}.
      </Typography>
      <QueryState
        isLoading={logQ.isLoading}
        error={logQ.error}
        onRetry={() => logQ.refetch()}
        isEmpty={logQ.data?.entries.length === 0}
        empty={<Typography color="text.secondary">{AUDIT_TEXTS.empty}</Typography>}
      >
        <AuditEntriesTable
          label={AUDIT_TEXTS.title}
          entries={logQ.data?.entries ?? []}
          total={total}
          page={Math.min(page, lastPage) - 1}
          onPage={(p) => setView({ filter, page: p + 1 })}
          timeZone={timeZone}
        />
      </QueryState>
    </Stack>
  );
}
