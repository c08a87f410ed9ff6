import {
  MONITOR_BOUNDS,
  MONITOR_FORM_LAYOUT,
  MONITOR_FORM_TEXTS as T,
  type TMonitorFormValues,
} from "@linewatch/contracts";
import { TextField } from "@mui/material";
import { useFormContext, useWatch } from "react-hook-form";
import { useFieldError, useMonitorFormCtx } from "../MonitorFormContext";

/** Notes (5 rows); in EDIT a counter reads 'Max length: N characters' (requirements.md monitor-forms §2). */
export function NotesBox() {
  const { readOnly, mode } = useMonitorFormCtx();
  const { control, setValue } = useFormContext<TMonitorFormValues>();
  const notes = useWatch({ control, name: "notes" });
  const error = useFieldError("notes");
  return (
    <TextField
      label={T.notes.label}
      multiline
      rows={MONITOR_FORM_LAYOUT.notesRows}
      value={notes}
      onChange={(e) => setValue("notes", e.target.value, { shouldDirty: true })}
      error={!!error}
      helperText={error ?? (mode === "EDIT" ? T.notes.maxLength(MONITOR_BOUNDS.notesMaxLength) : undefined)}
      slotProps={{
        htmlInput: { readOnly, maxLength: MONITOR_BOUNDS.notesMaxLength, "aria-label": T.notes.label },
      }}
      fullWidth
      size="small"
    />
  );
}
