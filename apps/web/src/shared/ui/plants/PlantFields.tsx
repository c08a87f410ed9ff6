import { PLANT_NAME_MAX, PLANT_TEXTS, timeZoneOptions } from "@linewatch/contracts";
import { Autocomplete, Stack, TextField } from "@mui/material";
import { useMemo } from "react";
import { type Control, Controller, type FieldErrors, type UseFormRegister } from "react-hook-form";
import type { PlantFormValues } from "./plant-form";

/**
 * A plant's Name and Time zone, for the add/edit dialog and the home page's first-plant form.
 * The time zone is picked from the runtime's IANA list (type to filter; arrows and Enter pick).
 */
export function PlantFields(p: {
  register: UseFormRegister<PlantFormValues>;
  control: Control<PlantFormValues>;
  errors: FieldErrors<PlantFormValues>;
  disabled: boolean;
  autoFocus?: boolean;
}) {
  const zones = useMemo(() => timeZoneOptions(), []);
  return (
    <Stack spacing={2}>
      <TextField
        {...p.register("name")}
        label={PLANT_TEXTS.name}
        required
        autoFocus={p.autoFocus}
        disabled={p.disabled}
        error={!!p.errors.name}
        helperText={p.errors.name?.message ?? `Up to ${PLANT_NAME_MAX} characters, unique in your company`}
        slotProps={{ htmlInput: { maxLength: PLANT_NAME_MAX + 20 } }}
      />
      <Controller
        control={p.control}
        name="timeZone"
        render={({ field }) => (
          <Autocomplete
            options={zones}
            value={field.value || null}
            onChange={(_, v) => field.onChange(v ?? "")}
            onBlur={field.onBlur}
            disabled={p.disabled}
            autoHighlight
            renderInput={(params) => (
              <TextField
                {...params}
                inputRef={field.ref}
                label={PLANT_TEXTS.timeZone}
                required
                error={!!p.errors.timeZone}
                helperText={p.errors.timeZone?.message ?? PLANT_TEXTS.timeZoneHelp}
              />
            )}
          />
        )}
      />
    </Stack>
  );
}
