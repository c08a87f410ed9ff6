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
// Below the md breakpoint (a tablet) the table drops its type and last-seen columns (the alert's
// details show both) and stacks a row's actions, so that it fits without sideways scrolling.
const WIDE_ONLY = { display: { xs: "none", md: "table-cell" } } as const;

export function AlertsTable(p: AlertsTableProps) {
  return (
    <Table size="small" aria-label="Alerts">
      <TableHead>
        <TableRow>
          <TableCell>State</TableCell>
          <TableCell>Monitor</TableCell>
          <TableCell sx={WIDE_ONLY}>Type</TableCell>
          <TableCell>Opened ({p.timeZone})</TableCell>
          <TableCell sx={WIDE_ONLY}>Last seen</TableCell>
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
            <TableCell sx={WIDE_ONLY}>{a.monitor?.type.toUpperCase() ?? "–"}</TableCell>
            <TableCell>{formatDateTime(a.openedAt, p.timeZone)}</TableCell>
            <TableCell sx={WIDE_ONLY}>{formatDateTime(a.lastSeenAt, p.timeZone)}</TableCell>
            <TableCell align="right">{a.count}</TableCell>
            <TableCell>{a.summary ?? "–"}</TableCell>
            <TableCell align="right">
              <Stack
                direction={{ xs: "column", lg: "row" }}
                spacing={{ xs: 0, lg: 1 }}
                sx={{ justifyContent: "flex-end", alignItems: { xs: "flex-end", lg: "center" } }}
              >
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
