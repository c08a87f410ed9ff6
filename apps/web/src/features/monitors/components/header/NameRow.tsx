import { MONITOR_FORM_TIMINGS, MONITOR_FORM_TEXTS as T, type TMonitorFormValues } from "@linewatch/contracts";
import { Button, CircularProgress, Stack, TextField } from "@mui/material";
import { useState } from "react";
import { useFormContext, useWatch } from "react-hook-form";
import { useDebouncedValue } from "../filters/useDebounced";
import { useFieldError, useMonitorFormCtx } from "../MonitorFormContext";

/**
 * Monitor name with the Default button (requirements.md monitor-forms §2 "Name row"): Default fetches the next available
 * name for the line. The error message is shown as the field's label (requirements.md monitor-forms §5).
 */
export function NameRow(p: { fetchDefaultName: () => Promise<string> }) {
  const { readOnly } = useMonitorFormCtx();
  const { control, setValue } = useFormContext<TMonitorFormValues>();
  const name = useWatch({ control, name: "monitor_name" });
  // The name's message follows typing after 500 ms (requirements.md monitor-forms §5: the name field's debounce).
  const error = useDebouncedValue(useFieldError("monitor_name") ?? null, MONITOR_FORM_TIMINGS.nameDebounceMs);
  const [busy, setBusy] = useState(false);
  const [fetchError, setFetchError] = useState<string | null>(null);

  const fillDefault = async () => {
    setBusy(true);
    setFetchError(null);
    try {
      setValue("monitor_name", await p.fetchDefaultName(), { shouldDirty: true });
    } catch (e) {
      setFetchError(e instanceof Error ? e.message : String(e));
    } finally {
      setBusy(false);
    }
  };

  return (
    <Stack direction="row" spacing={1} sx={{ alignItems: "flex-start" }}>
      <TextField
        name="monitor_name"
        label={error ?? T.name.label}
        error={!!error}
        required
        value={name}
        onChange={(e) => setValue("monitor_name", e.target.value, { shouldDirty: true })}
        slotProps={{ htmlInput: { readOnly, "aria-label": T.name.label } }}
        helperText={fetchError ?? undefined}
        size="small"
        sx={{ flex: 1 }}
      />
      {!readOnly && (
        <Button
          variant="outlined"
          onClick={fillDefault}
          disabled={busy}
          startIcon={busy ? <CircularProgress size={14} /> : undefined}
          sx={{ mt: "2px" }}
        >
          {T.name.default}
        </Button>
      )}
    </Stack>
  );
}
