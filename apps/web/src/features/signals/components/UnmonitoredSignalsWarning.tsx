import { Alert } from "@mui/material";
import { useLineSignals } from "../api/queries";
import { UNMONITORED_TEXT, unmonitoredSignalIds } from "../monitored";

/** On a monitor's form: some of its signals were switched off or converted (issue #15). */
export function UnmonitoredSignalsWarning(p: { lineId: string | null; signalIds: string[] }) {
  const signalsQ = useLineSignals(p.lineId);
  if (!signalsQ.data || p.signalIds.length === 0) return null;
  const missing = unmonitoredSignalIds(p.signalIds, signalsQ.data);
  if (missing.length === 0) return null;
  return (
    <Alert severity="warning" role="status">
      {UNMONITORED_TEXT.warning(missing.length)}
    </Alert>
  );
}
