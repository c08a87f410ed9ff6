import {
  LINE_MESSAGES,
  lineLabel,
  PLANT_OVERVIEW_TEXTS,
  type TOverviewLine,
  type TOverviewLineStatus,
} from "@linewatch/contracts";
import { Box, Chip, Link, Paper, Stack, Typography } from "@mui/material";
import { Link as RouterLink } from "react-router";
import { formatDateTime } from "../../../shared/format";
import { useTexts } from "../../../shared/i18n/language";
import { MonitorMarks } from "./MonitorMarks";
import { OpenAlertsSummary } from "./OpenAlertsSummary";
import { RecordsSparkline } from "./RecordsSparkline";

const STATUS_COLOR = { ALERTING: "error", OK: "success", NO_DATA_YET: "default" } as const satisfies Record<
  TOverviewLineStatus,
  string
>;

/** One line at a glance: status, last data, open alerts, its monitors' marks, records per hour. */
export function LineCard({
  line,
  timeZone,
  hoursFrom,
  now,
}: {
  line: TOverviewLine;
  timeZone: string;
  hoursFrom: string;
  now: Date;
}) {
  const name = lineLabel(line);
  const T = useTexts(PLANT_OVERVIEW_TEXTS);
  const LM = useTexts(LINE_MESSAGES);
  return (
    <Paper component="section" variant="outlined" aria-label={name} sx={{ p: 1.5 }}>
      <Stack spacing={1}>
        <Stack direction="row" spacing={1} sx={{ alignItems: "center", flexWrap: "wrap", rowGap: 0.5 }}>
          <Typography variant="subtitle1" component="h2" sx={{ fontWeight: 600, mr: "auto" }}>
            <Link component={RouterLink} to={`/lines/${line.id}`} underline="hover">
              {name}
            </Link>
          </Typography>
          {line.isNewLine && <Chip label={T.newLine} size="small" color="info" />}
          <Chip label={T.status[line.status]} color={STATUS_COLOR[line.status]} size="small" />
        </Stack>
        <Stack direction="row" spacing={1} sx={{ alignItems: "center", flexWrap: "wrap", rowGap: 0.5 }}>
          <Typography variant="caption" color="text.secondary">
            {T.lastData}:{" "}
            {line.lastIngestedTime ? formatDateTime(line.lastIngestedTime, timeZone) : T.noDataYet}
          </Typography>
          {line.noIngestion && <Chip label={LM.noIngestion} color="warning" size="small" />}
        </Stack>
        <OpenAlertsSummary groups={line.openAlerts} now={now} />
        <MonitorMarks monitors={line.monitors} lineId={line.id} lineName={name} />
        <Box>
          <RecordsSparkline
            counts={line.recordsPerHour}
            isNoIngestion={line.noIngestion}
            hoursFrom={hoursFrom}
            timeZone={timeZone}
          />
        </Box>
      </Stack>
    </Paper>
  );
}
