import type { TAlert } from "@linewatch/contracts";
import { NO_DATA_ALERT_TEXTS } from "@linewatch/contracts";
import { Button, Stack, Table, TableBody, TableCell, TableHead, TableRow } from "@mui/material";
import { formatDateTime } from "../../../shared/format";
import { AlertStateChip } from "./AlertStateChip";

export type AlertsTableProps = {
  alerts: TAlert[];
  timeZone: string;
  busy: boolean;
  onOpen: (alert: TAlert) => void;
  onAcknowledge: (alert: TAlert) => void;
  onComment: (alert: TAlert) => void;
  onResolve: (alert: TAlert) => void;
};

/** The line's alerts, newest first, with the actions a user takes on them. */
export function AlertsTable(p: AlertsTableProps) {
  return (
    <Table size="small" aria-label="Alerts">
      <TableHead>
        <TableRow>
          <TableCell>State</TableCell>
          <TableCell>Monitor</TableCell>
          <TableCell>Type</TableCell>
          <TableCell>Opened ({p.timeZone})</TableCell>
          <TableCell>Last seen</TableCell>
          <TableCell align="right">Count</TableCell>
          <TableCell>Latest evaluation</TableCell>
          <TableCell align="right">Actions</TableCell>
        </TableRow>
      </TableHead>
      <TableBody>
        {p.alerts.map((a) => (
          <TableRow key={a.id} hover>
            <TableCell>
              <AlertStateChip state={a.state} />
            </TableCell>
            <TableCell>{a.monitor?.name ?? NO_DATA_ALERT_TEXTS.title}</TableCell>
            <TableCell>{a.monitor?.type.toUpperCase() ?? "–"}</TableCell>
            <TableCell>{formatDateTime(a.openedAt, p.timeZone)}</TableCell>
            <TableCell>{formatDateTime(a.lastSeenAt, p.timeZone)}</TableCell>
            <TableCell align="right">{a.count}</TableCell>
            <TableCell>{a.summary ?? "–"}</TableCell>
            <TableCell align="right">
              <Stack direction="row" spacing={1} sx={{ justifyContent: "flex-end" }}>
                <Button size="small" onClick={() => p.onOpen(a)}>
                  Details
                </Button>
                {a.state === "OPEN" && (
                  <Button size="small" disabled={p.busy} onClick={() => p.onAcknowledge(a)}>
                    Acknowledge
                  </Button>
                )}
                <Button size="small" onClick={() => p.onComment(a)}>
                  Comment
                </Button>
                {a.state !== "RESOLVED" && (
                  <Button size="small" color="success" onClick={() => p.onResolve(a)}>
                    Resolve
                  </Button>
                )}
              </Stack>
            </TableCell>
          </TableRow>
        ))}
      </TableBody>
    </Table>
  );
}
