import { PLANT_OVERVIEW_TEXTS } from "@linewatch/contracts";
import { Box, useTheme } from "@mui/material";
import { tickLabel } from "../../../shared/format";
import { useTexts } from "../../../shared/i18n/language";

const BAR_W = 5; // px per hour
const GAP = 1;
const H = 28;
const HOUR_MS = 3_600_000;

/**
 * Records per hour over 24 hours as bars, oldest left, the current partial hour right: a small SVG
 * of its own (the chart library would weigh more than the whole home page). An hour without
 * records is a short grey tick, so a gap reads as a gap; a line in No Ingestion draws in warning.
 */
export function RecordsSparkline({
  counts,
  isNoIngestion,
  hoursFrom,
  timeZone,
}: {
  counts: number[];
  isNoIngestion: boolean;
  /** Start of the first hour; each bar says its hour on the plant's clock under the pointer. */
  hoursFrom: string;
  timeZone: string;
}) {
  const theme = useTheme();
  const T = useTexts(PLANT_OVERVIEW_TEXTS);
  const total = counts.reduce((a, b) => a + b, 0);
  const max = Math.max(1, ...counts);
  const label = T.recordsLabel(total);
  const fill = isNoIngestion ? theme.palette.warning.main : theme.palette.primary.main;
  const width = counts.length * (BAR_W + GAP) - GAP;
  return (
    <Box sx={{ display: "flex", alignItems: "flex-end", gap: 1 }}>
      <svg width={width} height={H} viewBox={`0 0 ${width} ${H}`} role="img" aria-label={label}>
        <title>{label}</title>
        {counts.map((n, i) => {
          const h = n === 0 ? 2 : Math.max(2, Math.round((n / max) * H));
          return (
            <rect
              // biome-ignore lint/suspicious/noArrayIndexKey: the hour's place is its identity.
              key={i}
              x={i * (BAR_W + GAP)}
              y={H - h}
              width={BAR_W}
              height={h}
              fill={n === 0 ? theme.palette.grey[400] : fill}
            >
              <title>
                {T.hourRecords(
                  tickLabel(new Date(Date.parse(hoursFrom) + i * HOUR_MS), timeZone, "minutes"),
                  n,
                )}
              </title>
            </rect>
          );
        })}
      </svg>
      <Box component="span" sx={{ typography: "caption", color: "text.secondary", whiteSpace: "nowrap" }}>
        {T.perDay(total)}
      </Box>
    </Box>
  );
}
