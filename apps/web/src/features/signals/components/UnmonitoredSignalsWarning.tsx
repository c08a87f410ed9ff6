import { Alert, Stack } from "@mui/material";
import { useLineSignals, useSignalGroups } from "../api/queries";
import { UNMONITORED_TEXT, unmonitoredSignals } from "../monitored";

/**
 * On a monitor's form: some of the signals it reaches (listed, or through its signal groups) were
 * switched off or converted in Signal Management (issue #15).
 */
export function UnmonitoredSignalsWarning(p: {
  customerId: string;
  plantId: string;
  lineId: string | null;
  signalIds: string[];
  signalGroupIds: string[];
}) {
  const signalsQ = useLineSignals(p.lineId);
  const groupsQ = useSignalGroups({
    customerUuid: p.customerId,
    plantUuid: p.plantId,
    // Group members matter only when the monitor has groups.
    lineUuid: p.signalGroupIds.length ? p.lineId : null,
  });
  if (!signalsQ.data || p.signalIds.length + p.signalGroupIds.length === 0) return null;
  const u = unmonitoredSignals(
    { signal_uuids: p.signalIds, signal_group_uuids: p.signalGroupIds },
    signalsQ.data,
    groupsQ.data,
  );
  if (u.listed.length + u.grouped.length === 0) return null;
  return (
    <Stack spacing={1} role="status">
      {u.isNoneLeft && <Alert severity="warning">{UNMONITORED_TEXT.noneLeft}</Alert>}
      {u.listed.length > 0 && <Alert severity="warning">{UNMONITORED_TEXT.warning(u.listed.length)}</Alert>}
      {!u.isNoneLeft && u.grouped.length > 0 && (
        <Alert severity="warning">{UNMONITORED_TEXT.groupWarning(u.grouped.length)}</Alert>
      )}
    </Stack>
  );
}
