import {
  ageText,
  NO_DATA_ALERT_TEXTS,
  PLANT_OVERVIEW_TEXTS,
  type TOverviewAlert,
  type TOverviewLine,
} from "@linewatch/contracts";
import { Link, List, ListItem, Paper, Stack, Typography } from "@mui/material";
import { Link as RouterLink } from "react-router";
import { formatDateTime } from "../../../shared/format";
import { useTexts } from "../../../shared/i18n/language";
import { AlertStateChip } from "../../alerts/components/AlertStateChip";

/** The alert's own address: its line's overview with its drawer open (as Teams messages link it). */
export const alertHref = (a: Pick<TOverviewAlert, "id" | "lineId">) => `/lines/${a.lineId}?alert=${a.id}`;

/** The plant's newest alerts, any state, each a link that opens it. */
export function NewestAlertsPanel({
  alerts,
  lines,
  timeZone,
  now,
}: {
  alerts: TOverviewAlert[];
  lines: Pick<TOverviewLine, "id" | "name" | "friendlyName">[];
  timeZone: string;
  now: Date;
}) {
  const T = useTexts(PLANT_OVERVIEW_TEXTS);
  const ND = useTexts(NO_DATA_ALERT_TEXTS);
  const lineName = (id: string) => {
    const l = lines.find((x) => x.id === id);
    return l ? l.friendlyName || l.name : "";
  };
  return (
    <Paper component="section" variant="outlined" aria-labelledby="newest-alerts" sx={{ p: 1.5 }}>
      <Typography id="newest-alerts" variant="h6" component="h2" gutterBottom>
        {T.newestAlerts}
      </Typography>
      {alerts.length === 0 ? (
        <Typography color="text.secondary">{T.noAlerts}</Typography>
      ) : (
        <List dense disablePadding>
          {alerts.map((a) => {
            const what = a.monitor ? `${a.monitor.name} (${T.typeLabel[a.monitor.type]})` : ND.title;
            return (
              <ListItem key={a.id} disableGutters divider sx={{ display: "block" }}>
                <Stack direction="row" spacing={1} sx={{ alignItems: "center" }}>
                  <Link
                    component={RouterLink}
                    to={alertHref(a)}
                    underline="hover"
                    sx={{ mr: "auto", overflowWrap: "anywhere" }}
                  >
                    {what}
                  </Link>
                  <AlertStateChip state={a.state} />
                </Stack>
                <Typography
                  variant="caption"
                  color="text.secondary"
                  title={formatDateTime(a.openedAt, timeZone)}
                >
                  {lineName(a.lineId)} · {T.ago(ageText(a.openedAt, now, T.ageUnits))}
                </Typography>
              </ListItem>
            );
          })}
        </List>
      )}
    </Paper>
  );
}
