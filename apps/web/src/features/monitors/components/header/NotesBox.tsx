import { MONITOR_BOUNDS, MONITOR_FORM_LAYOUT, type TMonitorFormValues } from "@linewatch/contracts";
import { TextField } from "@mui/material";
import { useFormContext, useWatch } from "react-hook-form";
import { useFieldError, useMonitorFormCtx } from "../MonitorFormContext";

/** Notes (5 rows); in EDIT a counter reads 'Max length: N characters' (spec §2). */
export function NotesBox() {
  const { readOnly, mode } = useMonitorFormCtx();
  const { control, setValue } = useFormContext<TMonitorFormValues>();
  const notes = useWatch({ control, name: "notes" });
  const error = useFieldError("notes");
  return (
    <TextField
      label="Notes"
      multiline
      rows={MONITOR_FORM_LAYOUT.notesRows}
      value={notes}
      onChange={(e) => setValue("notes", e.target.value, { shouldDirty: true })}
      error={!!error}
      helperText={
        error ?? (mode === "EDIT" ? `Max length: ${MONITOR_BOUNDS.notesMaxLength} characters` : undefined)
      }
      slotProps={{ htmlInput: { readOnly, maxLength: MONITOR_BOUNDS.notesMaxLength, "aria-label": "Notes" } }}
      fullWidth
      size="small"
    />
  );
}
