import { ALERT_TEXTS, NO_DATA_ALERT_TEXTS, type TAlert } from "@linewatch/contracts";
import { Button, Stack, Table, TableBody, TableCell, TableHead, TableRow } from "@mui/material";
import { formatDateTime } from "../../../shared/format";
import { useTexts } from "../../../shared/i18n/language";
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
  const T = useTexts(ALERT_TEXTS);
  const ND = useTexts(NO_DATA_ALERT_TEXTS);
  return (
    <Table size="small" aria-label={T.alertsLabel}>
      <TableHead>
        <TableRow>
          <TableCell>{T.columns.state}</TableCell>
          <TableCell>{T.columns.monitor}</TableCell>
          <TableCell sx={WIDE_ONLY}>{T.columns.type}</TableCell>
          <TableCell>{T.columns.opened(p.timeZone)}</TableCell>
          <TableCell sx={WIDE_ONLY}>{T.columns.lastSeen}</TableCell>
          <TableCell align="right">{T.columns.count}</TableCell>
          <TableCell>{T.columns.latest}</TableCell>
          <TableCell align="right">{T.columns.actions}</TableCell>
        </TableRow>
      </TableHead>
      <TableBody>
        {p.alerts.map((a) => (
          <TableRow key={a.id} hover>
            <TableCell>
              <AlertStateChip state={a.state} />
            </TableCell>
            <TableCell>{a.monitor?.name ?? ND.title}</TableCell>
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
                  {T.details}
                </Button>
                {a.state === "OPEN" && (
                  <Button size="small" disabled={p.busy} onClick={() => p.onAcknowledge(a)}>
                    {T.acknowledge}
                  </Button>
                )}
                <Button size="small" onClick={() => p.onComment(a)}>
                  {T.comment}
                </Button>
                {a.state !== "RESOLVED" && (
                  <Button size="small" color="success" onClick={() => p.onResolve(a)}>
                    {T.resolve}
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
