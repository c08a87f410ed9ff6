import { AUDIT_TEXTS, type TAuditResource } from "@linewatch/contracts";
import { Typography } from "@mui/material";
import { useState } from "react";
import { usePlantLine } from "../../../shared/data/plants/plant-line";
import { QueryState } from "../../../shared/ui/QueryState";
import { useResourceHistory } from "../api/queries";
import { auditOffset } from "../audit-log.filters";
import { AuditEntriesTable } from "./AuditEntriesTable";

export type ResourceHistoryProps = {
  resource: TAuditResource;
  resourceId: string;
};

/**
 * One resource's own history (issue 18 §2: "each resource's drawer or page shows its own
 * history"): who changed it, when, how, and the fields before and after, newest first.
 */
export function ResourceHistory({ resource, resourceId }: ResourceHistoryProps) {
  const [page, setPage] = useState(0);
  const q = useResourceHistory(resource, resourceId, auditOffset(page + 1));
  const timeZone = usePlantLine().plant?.timeZone ?? "UTC";
  return (
    <QueryState
      isLoading={q.isLoading}
      error={q.error}
      onRetry={() => q.refetch()}
      isEmpty={q.data?.entries.length === 0}
      empty={<Typography color="text.secondary">{AUDIT_TEXTS.empty}</Typography>}
    >
      <Typography variant="body2" color="text.secondary" sx={{ mb: 1 }}>
        Times in {timeZone}.
      </Typography>
      <AuditEntriesTable
        label={`${AUDIT_TEXTS.history}: ${AUDIT_TEXTS.resourceLabels[resource]}`}
        entries={q.data?.entries ?? []}
        total={q.data?.total ?? 0}
        page={page}
        onPage={setPage}
        timeZone={timeZone}
        isOneResource
      />
    </QueryState>
  );
}
