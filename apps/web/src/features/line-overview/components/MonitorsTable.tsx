import {
  LINE_MESSAGES,
  LINE_OVERVIEW_TEXTS,
  type TMonitor,
  type TSignalGroup,
  type TStation,
  UNMONITORED_TEXT,
} from "@linewatch/contracts";
import { Chip, Link, Table, TableBody, TableCell, TableHead, TableRow } from "@mui/material";
import { Link as RouterLink } from "react-router";
import { formatDateTime } from "../../../shared/format";
import { useTexts } from "../../../shared/i18n/language";
import { unmonitoredSignals } from "../../signals/monitored";
import { MONITOR_STATE_COLOR } from "./monitorState";

/** The line's monitors with their last state and next run; MVD and SVD names open the form in VIEW. */
export function MonitorsTable({
  monitors,
  timeZone,
  activeStations,
  signalGroups,
  isLineActive = true,
}: {
  monitors: TMonitor[];
  timeZone: string;
  /** False for an inactive line: its monitors are stopped whatever their own switch says (no next run). */
  isLineActive?: boolean;
  /** The line's active signals: a monitor using others says so (issue #15). */
  activeStations?: TStation[];
  /** The line's signal groups with their members (the signals a monitor reaches through them). */
  signalGroups?: TSignalGroup[];
}) {
  const T = useTexts(LINE_OVERVIEW_TEXTS);
  const LM = useTexts(LINE_MESSAGES);
  return (
    <Table size="small" aria-label={T.monitors}>
      <TableHead>
        <TableRow>
          <TableCell>{T.columns.monitor}</TableCell>
          <TableCell>{T.columns.type}</TableCell>
          <TableCell>{T.columns.active}</TableCell>
          <TableCell>{T.columns.every}</TableCell>
          <TableCell>{T.columns.lastState}</TableCell>
          <TableCell>{T.columns.lastEvaluated(timeZone)}</TableCell>
          <TableCell>{T.columns.nextRun}</TableCell>
        </TableRow>
      </TableHead>
      <TableBody>
        {monitors.map((m) => (
          <TableRow key={m.monitor_uuid}>
            <TableCell>
              {m.monitor_type === "cap" ? (
                m.monitor_name
              ) : (
                <Link component={RouterLink} to={`/monitors/${m.monitor_uuid}`} underline="hover">
                  {m.monitor_name}
                </Link>
              )}
              <UnmonitoredChip monitor={m} activeStations={activeStations} signalGroups={signalGroups} />
            </TableCell>
            <TableCell>{m.monitor_type.toUpperCase()}</TableCell>
            <TableCell>{m.active ? (isLineActive ? T.yes : LM.monitorStoppedWithLine) : T.no}</TableCell>
            <TableCell>{T.everyMinutes(m.frequency)}</TableCell>
            <TableCell>
              {m.last_state ? (
                <Chip size="small" label={T.state[m.last_state]} color={MONITOR_STATE_COLOR[m.last_state]} />
              ) : (
                T.notEvaluated
              )}
            </TableCell>
            <TableCell>{m.last_evaluated_at ? formatDateTime(m.last_evaluated_at, timeZone) : "–"}</TableCell>
            <TableCell>
              {isLineActive && m.active && m.next_run_at ? formatDateTime(m.next_run_at, timeZone) : "–"}
            </TableCell>
          </TableRow>
        ))}
      </TableBody>
    </Table>
  );
}

function UnmonitoredChip({
  monitor,
  activeStations,
  signalGroups,
}: {
  monitor: TMonitor;
  activeStations?: TStation[];
  signalGroups?: TSignalGroup[];
}) {
  const U = useTexts(UNMONITORED_TEXT);
  if (!activeStations) return null;
  const u = unmonitoredSignals(monitor.monitor_filter, activeStations, signalGroups);
  const n = u.listed.length + u.grouped.length;
  if (n === 0) return null;
  return (
    <Chip
      size="small"
      color="warning"
      variant="outlined"
      label={U.chip}
      title={u.isNoneLeft ? U.chipTitleNoneLeft : U.chipTitle(n)}
      sx={{ ml: 1 }}
    />
  );
}
