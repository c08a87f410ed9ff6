import { SETTINGS_GRID_PAGE_SIZE, type TFormMonitorType, type TMonitor } from "@linewatch/contracts";
import DeleteIcon from "@mui/icons-material/DeleteOutlined";
import EditIcon from "@mui/icons-material/EditOutlined";
import { IconButton, Stack, Switch } from "@mui/material";
import { useMemo } from "react";
import { compareValues } from "../../../../shared/ui/settings/expandable-rows";
import { SettingsGrid } from "../../../../shared/ui/settings/SettingsGrid";
import type { SettingsColumn } from "../../../../shared/ui/settings/settings-grid";
import { MONITORS_ADMIN_TEXTS as T } from "../texts";

/** Sorted by name (requirements.md settings §9 "Default sorts"), 25 a page. */
const INITIAL_STATE = {
  sorting: { sortModel: [{ field: "monitor_name", sort: "asc" as const }] },
  pagination: { paginationModel: { pageSize: SETTINGS_GRID_PAGE_SIZE } },
};

export type MonitorsGridProps = {
  type: TFormMonitorType;
  monitors: TMonitor[];
  /** Monitors whose Active change is on its way, with the position asked for. */
  pendingActive: ReadonlyMap<string, boolean>;
  onActiveChange: (monitor: TMonitor, active: boolean) => void;
  onEdit: (monitor: TMonitor) => void;
  onDelete: (monitor: TMonitor) => void;
};

/** The line's SVD or MVD monitors: Active switch, name, edit and delete (requirements.md settings §2.7). */
export function MonitorsGrid(p: MonitorsGridProps) {
  const { pendingActive, onActiveChange, onEdit, onDelete } = p;
  const columns = useMemo<SettingsColumn<TMonitor>[]>(
    () => [
      {
        field: "active",
        headerName: T.activeColumn,
        width: 110,
        sortable: false,
        renderCell: ({ row }) => (
          <Switch
            checked={pendingActive.get(row.monitor_uuid) ?? row.active}
            disabled={pendingActive.has(row.monitor_uuid)}
            onChange={(_, checked) => onActiveChange(row, checked)}
            slotProps={{ input: { "aria-label": T.activeLabel(row.monitor_name) } }}
          />
        ),
      },
      // Names with numbers in them sort by the numbers ("Monitor 2" before "Monitor 10").
      { field: "monitor_name", headerName: T.nameColumn, minWidth: 240, sortComparator: compareValues },
      {
        field: "actions",
        headerName: "",
        width: 120,
        sortable: false,
        renderCell: ({ row }) => (
          <Stack direction="row" spacing={0.5}>
            <IconButton size="small" aria-label={T.editLabel(row.monitor_name)} onClick={() => onEdit(row)}>
              <EditIcon fontSize="small" />
            </IconButton>
            <IconButton
              size="small"
              aria-label={T.deleteLabel(row.monitor_name)}
              onClick={() => onDelete(row)}
            >
              <DeleteIcon fontSize="small" />
            </IconButton>
          </Stack>
        ),
      },
    ],
    [pendingActive, onActiveChange, onEdit, onDelete],
  );

  return (
    <SettingsGrid
      label={T.pageTitle(p.type)}
      emptyText={T.empty(p.type)}
      rows={p.monitors}
      columns={columns}
      getRowId={(m) => m.monitor_uuid}
      initialState={INITIAL_STATE}
      // The page scrolls, not the grid.
      height="none"
    />
  );
}
