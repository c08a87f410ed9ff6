import dayjs from "dayjs";
import timezone from "dayjs/plugin/timezone";
import utc from "dayjs/plugin/utc";

dayjs.extend(utc);
dayjs.extend(timezone);

/** A datetime-local input's value: `yyyy-MM-ddTHH:mm`, read as the plant's wall clock. */
const INPUT_FORMAT = "YYYY-MM-DDTHH:mm";

/** The plant's wall-clock time of an instant, for a datetime-local input. */
export function toPlantInput(at: Date | number, timeZone: string): string {
  return dayjs(at).tz(timeZone).format(INPUT_FORMAT);
}

/**
 * The instant a datetime-local input's value names on the plant's wall clock (not the browser's):
 * an ISO string, or null when the text is not a date-time.
 */
export function fromPlantInput(text: string, timeZone: string): string | null {
  if (!/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2})?$/.test(text)) return null;
  const d = dayjs.tz(text, timeZone);
  return d.isValid() ? d.toISOString() : null;
}
