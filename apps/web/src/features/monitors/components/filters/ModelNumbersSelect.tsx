import { MONITOR_FORM_TEXTS, type TMonitorFormValues } from "@linewatch/contracts";
import { Alert, Autocomplete, Box, Button, Chip, TextField } from "@mui/material";
import { useFormContext, useWatch } from "react-hook-form";
import { useModelNumbers } from "../../api/queries";
import { useMonitorFormCtx } from "../MonitorFormContext";

const T = MONITOR_FORM_TEXTS.modelNumbers;

/** Model Numbers (requirements.md monitor-forms §2): the line's model numbers, challenge parts marked; none selected: all. */
export function ModelNumbersSelect() {
  const ctx = useMonitorFormCtx();
  const { control, setValue } = useFormContext<TMonitorFormValues>();
  const lineId = useWatch({ control, name: "line_uuid" });
  const selected = useWatch({ control, name: "part_numbers" });
  const q = useModelNumbers(lineId || null);
  const challenge = new Set((q.data ?? []).filter((m) => m.isChallenge).map((m) => m.value));
  const options = (q.data ?? []).map((m) => m.value);

  if (q.error)
    return (
      <Alert
        severity="error"
        action={
          <Button color="inherit" size="small" onClick={() => q.refetch()}>
            {MONITOR_FORM_TEXTS.retry}
          </Button>
        }
      >
        {T.loadError}
      </Alert>
    );

  return (
    <Autocomplete
      multiple
      size="small"
      options={options}
      value={selected}
      onChange={(_e, v) => setValue("part_numbers", v, { shouldDirty: true })}
      readOnly={ctx.readOnly}
      loading={q.isLoading}
      disableCloseOnSelect
      filterSelectedOptions
      noOptionsText={lineId ? T.none : T.selectLine}
      renderOption={(props, option) => {
        const { key, ...rest } = props;
        return (
          <Box component="li" key={key} {...rest} sx={{ gap: 1 }}>
            {option}
            {challenge.has(option) && (
              <Chip label={T.challenge} size="small" color="warning" variant="outlined" />
            )}
          </Box>
        );
      }}
      renderValue={(values, getItemProps) =>
        values.map((v, index) => {
          const { key, ...itemProps } = getItemProps({ index });
          return (
            <Chip
              key={key}
              size="small"
              label={challenge.has(v) ? T.challengeValue(v) : v}
              color={challenge.has(v) ? "warning" : "default"}
              {...itemProps}
            />
          );
        })
      }
      renderInput={(params) => (
        <TextField {...params} label={T.label} placeholder={selected.length ? "" : T.all} />
      )}
    />
  );
}
