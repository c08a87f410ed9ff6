import { BACKTEST_ALERT_LIST_MAX, BACKTEST_TEXTS, type TBacktestAlert } from "@linewatch/contracts";
import { Box, List, ListItem, ListItemText, Typography } from "@mui/material";
import { useId } from "react";
import { formatDateTime } from "../../../../shared/format";

const T = BACKTEST_TEXTS;

/**
 * The would-be alerts as text under the chart, in the plant's time: the shaded spans say where,
 * this says exactly when (a span of minutes in a 7-day chart is a few pixels).
 */
export function BacktestAlertList({
  alerts,
  timeZone,
}: {
  alerts: readonly TBacktestAlert[];
  timeZone: string;
}) {
  const headingId = useId();
  if (alerts.length === 0) return null;
  const shown = alerts.slice(0, BACKTEST_ALERT_LIST_MAX);
  return (
    <Box>
      <Typography id={headingId} variant="caption" component="h4" color="text.secondary">
        {T.alertsHeading}
      </Typography>
      <List dense disablePadding aria-labelledby={headingId}>
        {shown.map((a) => (
          <ListItem
            key={a.opened_at}
            disableGutters
            data-opened-at={a.opened_at}
            data-resolved-at={a.resolved_at ?? ""}
          >
            <ListItemText
              primary={T.alertSpan(
                formatDateTime(a.opened_at, timeZone),
                a.resolved_at ? formatDateTime(a.resolved_at, timeZone) : null,
              )}
            />
          </ListItem>
        ))}
      </List>
      {alerts.length > shown.length && (
        <Typography variant="caption" color="text.secondary">
          {T.moreAlerts(alerts.length - shown.length)}
        </Typography>
      )}
    </Box>
  );
}
