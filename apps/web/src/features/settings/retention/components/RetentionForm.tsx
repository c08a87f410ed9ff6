import { RETENTION_DEFAULTS, RETENTION_FIELDS, RETENTION_TEXTS } from "@linewatch/contracts";
import { Box, Button, Checkbox, FormControlLabel, Stack, TextField, Typography } from "@mui/material";
import { Controller, type UseFormReturn } from "react-hook-form";
import type { RetentionFormValues } from "../retention.form";

export type RetentionFormProps = {
  form: UseFormReturn<RetentionFormValues>;
  isSaving: boolean;
  onSubmit: (values: RetentionFormValues) => void;
};

/**
 * The four horizons (issue 31 §2): per kind of row a number of days or "Keep for ever", with what
 * it covers and its default; Save submits (Enter in a field too). Presentational: the page owns the
 * form, the query and the mutation.
 */
export function RetentionForm({ form, isSaving, onSubmit }: RetentionFormProps) {
  const T = RETENTION_TEXTS;
  const { errors } = form.formState;
  return (
    <Box component="form" noValidate aria-label={T.title} onSubmit={form.handleSubmit(onSubmit)}>
      <Stack spacing={3} sx={{ p: 2 }}>
        {RETENTION_FIELDS.map((f) => {
          const forever = form.watch(`${f}.forever`);
          const error = errors[f]?.days?.message;
          const helperId = `retention-${f}-helper`;
          return (
            <Stack
              key={f}
              direction={{ xs: "column", sm: "row" }}
              spacing={2}
              sx={{ alignItems: "flex-start" }}
            >
              <Box sx={{ width: { sm: 260 }, flexShrink: 0, pt: 1 }}>
                <Typography component="h3" variant="subtitle2">
                  {T.labels[f]}
                </Typography>
                <Typography variant="body2" color="text.secondary" id={helperId}>
                  {T.helper[f]} {T.defaultIs(RETENTION_DEFAULTS[f])}
                </Typography>
              </Box>
              <Controller
                control={form.control}
                name={`${f}.days`}
                render={({ field }) => (
                  <TextField
                    {...field}
                    label={`${T.labels[f]} (${T.days})`}
                    size="small"
                    type="number"
                    disabled={forever || isSaving}
                    value={forever ? "" : (field.value ?? "")}
                    error={!!error}
                    helperText={error ?? (forever ? T.forever : " ")}
                    sx={{ width: 200 }}
                    slotProps={{
                      htmlInput: { min: 1, step: 1, "aria-describedby": helperId },
                      // "for ever" under the switched-off field is what it says: readable, not greyed.
                      formHelperText: { sx: { "&.Mui-disabled": { color: "text.secondary" } } },
                    }}
                  />
                )}
              />
              <Controller
                control={form.control}
                name={`${f}.forever`}
                render={({ field }) => (
                  <FormControlLabel
                    control={
                      <Checkbox
                        // Undefined until the stored values arrive (the page resets the form then).
                        checked={field.value ?? false}
                        onChange={(e) => {
                          field.onChange(e.target.checked);
                          // The number's problem no longer counts once the rows are kept for ever.
                          void form.trigger(`${f}.days`);
                        }}
                        onBlur={field.onBlur}
                        disabled={isSaving}
                        slotProps={{ input: { "aria-label": `${T.labels[f]}: ${T.keepForever}` } }}
                      />
                    }
                    label={T.keepForever}
                  />
                )}
              />
            </Stack>
          );
        })}
        <Box>
          <Button type="submit" variant="contained" disabled={isSaving || !form.formState.isDirty}>
            {T.save}
          </Button>
        </Box>
      </Stack>
    </Box>
  );
}
