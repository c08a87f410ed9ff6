import {
  SIGNAL_MANAGEMENT_MESSAGES as MSG,
  SIGNAL_MANAGEMENT_TEXT as TEXT,
  type TStation,
} from "@linewatch/contracts";
import InfoOutlinedIcon from "@mui/icons-material/InfoOutlined";
import { FormControlLabel, Stack, Switch, TextField, Typography } from "@mui/material";
import { HistoryButton } from "../../../audit-log/components/HistoryButton";

/** A station can be made final only when it holds a result signal, or is final already (requirements.md settings §4). */
export const canToggleFinal = (s: TStation) => s.final || s.signals.some((x) => x.entityType === "RESULT");

/** The Station form (requirements.md settings §2.8): its name and the 'Final Station' switch with its info text. */
export function StationForm(p: {
  station: TStation;
  /** The value being saved, shown at once (the switch follows the click, not the refetch). */
  pendingFinal: boolean | null;
  isSaving: boolean;
  onFinalChange: (final: boolean) => void;
}) {
  const { station } = p;
  return (
    <Stack spacing={2} sx={{ p: 2 }} component="section" aria-label={station.name}>
      <Stack direction="row" sx={{ justifyContent: "flex-end" }}>
        <HistoryButton resource="station" items={[{ id: station.id, name: station.name }]} />
      </Stack>
      <TextField
        label={TEXT.stationName}
        value={station.name}
        size="small"
        slotProps={{ input: { readOnly: true } }}
      />
      <FormControlLabel
        control={
          <Switch
            checked={p.pendingFinal ?? station.final}
            disabled={p.isSaving || !canToggleFinal(station)}
            onChange={(e) => p.onFinalChange(e.target.checked)}
          />
        }
        label={TEXT.finalStation}
      />
      <Stack direction="row" spacing={1} sx={{ alignItems: "center", color: "text.secondary" }}>
        <InfoOutlinedIcon fontSize="small" />
        <Typography variant="body2">{MSG.finalStationNeedsResult}</Typography>
      </Stack>
    </Stack>
  );
}
