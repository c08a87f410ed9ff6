import { MONITOR_FORM_TEXTS } from "@linewatch/contracts";
import type { DateTimeValidationError } from "@mui/x-date-pickers";
import { DateTimePicker } from "@mui/x-date-pickers/DateTimePicker";
import dayjs, { type Dayjs } from "dayjs";
import timezone from "dayjs/plugin/timezone";
import utc from "dayjs/plugin/utc";
import { useState } from "react";
import { PERIOD_TIME_FORMAT } from "./filters.logic";

dayjs.extend(utc);
dayjs.extend(timezone);

/** The picker's value for an epoch time: null when empty, an invalid date for NaN. */
function toPickerValue(ms: number | null, timeZone: string): Dayjs | null {
  if (ms == null) return null;
  if (!Number.isFinite(ms)) return dayjs(new Date(Number.NaN));
  return dayjs(ms).tz(timeZone);
}

/**
 * A date-time in the plant's time zone (requirements.md monitor-forms §2 "Other widgets"): future dates cannot be chosen
 * and an entry the picker cannot accept shows the label 'Error'. Emits epoch ms, NaN for an
 * invalid entry and null when cleared (the form's validation then reports the time as invalid).
 * Needs a LocalizationProvider with AdapterDayjs above it.
 */
export function PlantDateTimePicker(p: {
  label: string;
  value: number | null;
  onChange: (ms: number | null) => void;
  timeZone: string;
  now: number;
  readOnly: boolean;
  error?: string;
}) {
  const [pickerError, setPickerError] = useState<DateTimeValidationError>(null);
  // What the picker shows: the date it last emitted, so a half-typed entry stays as typed (an
  // invalid date has no epoch form); replaced when the form's value changes otherwise (a
  // correction, a mode change).
  const [shown, setShown] = useState(() => ({ ms: p.value, date: toPickerValue(p.value, p.timeZone) }));
  let date = shown.date;
  if (!Object.is(shown.ms, p.value)) {
    date = toPickerValue(p.value, p.timeZone);
    setShown({ ms: p.value, date });
  }

  const handleChange = (v: Dayjs | null) => {
    const ms = v == null ? null : v.isValid() ? v.valueOf() : Number.NaN;
    setShown({ ms, date: v });
    p.onChange(ms);
  };

  return (
    <DateTimePicker
      label={pickerError ? MONITOR_FORM_TEXTS.period.invalidDate : p.label}
      value={date}
      timezone={p.timeZone}
      format={PERIOD_TIME_FORMAT}
      ampm={false}
      views={["year", "month", "day", "hours", "minutes", "seconds"]}
      disableFuture
      maxDateTime={dayjs(p.now).tz(p.timeZone)}
      readOnly={p.readOnly}
      onError={setPickerError}
      onChange={handleChange}
      slotProps={{
        textField: {
          size: "small",
          fullWidth: true,
          error: !!p.error || !!pickerError,
          helperText: p.error,
        },
      }}
    />
  );
}
