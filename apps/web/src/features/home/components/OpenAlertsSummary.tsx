import { PLANT_OVERVIEW_TEXTS, type TOverviewOpenAlerts } from "@linewatch/contracts";
import { Chip, Stack, Typography } from "@mui/material";
import { useTexts } from "../../../shared/i18n/language";

/** A line's open alerts per monitor type with the oldest's age: "3 SVD · oldest 2 h". */
export function OpenAlertsSummary({ groups, now }: { groups: TOverviewOpenAlerts[]; now: Date }) {
  const T = useTexts(PLANT_OVERVIEW_TEXTS);
  if (groups.length === 0)
    return (
      <Typography variant="caption" color="text.secondary">
        {T.noOpenAlerts}
      </Typography>
    );
  return (
    <Stack direction="row" sx={{ flexWrap: "wrap", gap: 0.5 }}>
      {groups.map((g) => (
        <Chip
          key={g.type}
          size="small"
          color={g.type === "no_data" ? "warning" : "error"}
          variant="outlined"
          label={T.openAlerts(g, now)}
        />
      ))}
    </Stack>
  );
}
