import { ENTITY_TYPE_LABELS, SIGNAL_MANAGEMENT_TEXT as TEXT, type TStation } from "@linewatch/contracts";
import SearchIcon from "@mui/icons-material/Search";
import { Box, Button, Chip, InputAdornment, TextField, Typography } from "@mui/material";
import { useCallback } from "react";
import { SignalTree } from "../../../signals/components/SignalTree";
import type { TSelectableNode, TSelectablePredicate, TSelectGesture } from "../../../signals/selection";
import type { TTreeRow } from "../../../signals/signal-tree";

/**
 * The left pane (requirements.md settings §2.8 "Tree behaviour"): a search over stations and signals and the
 * shared virtual tree, with the 'Final' chip, each signal's entity type and status, and 'Configure
 * Station' on every station but the line's default one.
 */
export function ManagementTree(p: {
  rows: TTreeRow[];
  query: string;
  onQueryChange: (q: string) => void;
  isEmptySearch: boolean;
  hasStations: boolean;
  multiselectable: boolean;
  selected: ReadonlySet<string>;
  isSelectable: TSelectablePredicate;
  onSelect: (node: TSelectableNode, gesture: TSelectGesture) => void;
  onToggleOpen: (key: string) => void;
  onConfigureStation: (station: TStation) => void;
  configuringStationId: string | null;
  isLocked: boolean;
}) {
  const { onConfigureStation, configuringStationId, isLocked } = p;
  const renderChips = useCallback((row: TTreeRow) => {
    if (row.kind === "station")
      return row.station.final ? <Chip size="small" color="primary" label={TEXT.final} /> : null;
    if (row.kind !== "signal") return null;
    return (
      <>
        <Chip size="small" variant="outlined" label={ENTITY_TYPE_LABELS[row.signal.entityType]} />
        {row.signal.isSignalActive ? null : <Chip size="small" label={TEXT.off} />}
      </>
    );
  }, []);
  const renderActions = useCallback(
    (row: TTreeRow) =>
      row.kind === "station" && !row.station.isDefault ? (
        <Button
          size="small"
          variant={configuringStationId === row.station.id ? "contained" : "text"}
          disabled={isLocked}
          onClick={() => onConfigureStation(row.station)}
          aria-label={`${TEXT.configureStation} ${row.station.name}`}
        >
          {TEXT.configureStation}
        </Button>
      ) : null,
    [onConfigureStation, configuringStationId, isLocked],
  );

  return (
    <Box sx={{ display: "flex", flexDirection: "column", height: "100%", minHeight: 0 }}>
      <TextField
        size="small"
        label={TEXT.searchLabel}
        value={p.query}
        onChange={(e) => p.onQueryChange(e.target.value)}
        sx={{ m: 1 }}
        slotProps={{
          input: {
            startAdornment: (
              <InputAdornment position="start">
                <SearchIcon fontSize="small" />
              </InputAdornment>
            ),
          },
        }}
      />
      {!p.hasStations ? (
        <Typography variant="body2" color="text.secondary" sx={{ p: 2 }}>
          {TEXT.noStations}
        </Typography>
      ) : p.isEmptySearch ? (
        <Typography variant="body2" color="text.secondary" sx={{ p: 2 }} role="status">
          {TEXT.noResults}
        </Typography>
      ) : (
        <SignalTree
          rows={p.rows}
          multiselectable={p.multiselectable}
          readOnly={false}
          selectedSignals={p.selected}
          selectedGroups={EMPTY}
          isSelectable={p.isSelectable}
          onSelect={p.onSelect}
          onToggleOpen={p.onToggleOpen}
          renderChips={renderChips}
          renderActions={renderActions}
        />
      )}
    </Box>
  );
}
const EMPTY: ReadonlySet<string> = new Set();
