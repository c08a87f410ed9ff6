import { PLANT_OVERVIEW_TEXTS, type TOverviewMonitor, type Translation } from "@linewatch/contracts";
import { Box, Tooltip, Typography } from "@mui/material";
import { Link as RouterLink } from "react-router";
import { useTexts } from "../../../shared/i18n/language";
import { MONITOR_STATE_COLOR } from "../../line-overview/components/monitorState";

const SIZE = 14; // px

/** A monitor's page: MVD and SVD monitors open their form; a cap monitor has none, its line opens. */
const monitorHref = (m: TOverviewMonitor, lineId: string) =>
  m.type === "cap" ? `/lines/${lineId}` : `/monitors/${m.id}`;

export const monitorMarkText = (m: TOverviewMonitor, T: Translation<typeof PLANT_OVERVIEW_TEXTS>) =>
  `${m.name} (${T.typeLabel[m.type]}): ${m.lastState ? T.stateLabel[m.lastState] : T.notEvaluated}${
    m.active ? "" : `, ${T.inactive}`
  }`;

/**
 * The line's monitors as a row of coloured marks, worst first (the server's order): filled in the
 * last state's colour, hollow when inactive, dashed when not evaluated yet. Each is a link, so the
 * keyboard reaches it, and says its monitor and state in a tooltip and to screen readers.
 */
export function MonitorMarks({
  monitors,
  lineId,
  lineName,
}: {
  monitors: TOverviewMonitor[];
  lineId: string;
  lineName: string;
}) {
  const T = useTexts(PLANT_OVERVIEW_TEXTS);
  if (monitors.length === 0)
    return (
      <Typography variant="caption" color="text.secondary">
        {T.noMonitors}
      </Typography>
    );
  return (
    <Box
      component="ul"
      aria-label={T.monitorsLabel(lineName)}
      sx={{ display: "flex", flexWrap: "wrap", gap: "4px", listStyle: "none", m: 0, p: 0 }}
    >
      {monitors.map((m) => {
        const text = monitorMarkText(m, T);
        const color = m.lastState ? MONITOR_STATE_COLOR[m.lastState] : "default";
        const paint = color === "default" ? "grey.500" : `${color}.main`;
        const isFilled = m.active && m.lastState != null;
        return (
          <li key={m.id} style={{ display: "flex" }}>
            <Tooltip title={text} disableInteractive>
              <Box
                component={RouterLink}
                to={monitorHref(m, lineId)}
                aria-label={text}
                data-state={m.lastState ?? "none"}
                sx={{
                  width: SIZE,
                  height: SIZE,
                  borderRadius: "3px",
                  boxSizing: "border-box",
                  bgcolor: isFilled ? paint : "transparent",
                  border: 2,
                  borderColor: paint,
                  borderStyle: m.lastState ? "solid" : "dashed",
                  "&:focus-visible": { outline: "2px solid", outlineColor: "primary.main", outlineOffset: 2 },
                }}
              />
            </Tooltip>
          </li>
        );
      })}
    </Box>
  );
}
