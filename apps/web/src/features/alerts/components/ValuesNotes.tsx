import type { TEvaluationValues } from "@linewatch/contracts";
import { Alert } from "@mui/material";

/** Why the values shown may not be exactly the ones the evaluation judged. */
export function ValuesNotes({ values }: { values: TEvaluationValues }) {
  if (values.isMonitorChanged)
    return (
      <Alert severity="info" sx={{ mt: 1 }}>
        The monitor's settings changed after this evaluation: these values are read with its current settings
        and may differ from the ones it judged.
      </Alert>
    );
  if (!values.isSameAsEvaluated)
    return (
      <Alert severity="info" sx={{ mt: 1 }}>
        Read again, the window differs in size from the evaluated one (records arrived late or were removed
        since): the values shown are close to, not exactly, the ones it judged.
      </Alert>
    );
  return null;
}
