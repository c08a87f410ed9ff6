import { SETTINGS_GRID_PAGE_SIZE, type TFormMonitorType, type TMonitor } from "@linewatch/contracts";
import DeleteIcon from "@mui/icons-material/DeleteOutlined";
import EditIcon from "@mui/icons-material/EditOutlined";
import { Switch } from "@mui/material";
import { GridActionsCellItem, type GridColDef, type GridSortModel } from "@mui/x-data-grid";
import { useMemo } from "react";
import { SettingsGrid } from "../../../../shared/ui/settings/SettingsGrid";
import { MONITORS_ADMIN_TEXTS as T } from "../texts";

/** Sorted by name (spec settings §9 "Default sorts"). */
const DEFAULT_SORT: GridSortModel = [{ field: "monitor_name", sort: "asc" }];

export type MonitorsGridProps = {
  type: TFormMonitorType;
  monitors: TMonitor[];
  /** Monitors whose Active change is on its way, with the position asked for. */
  pendingActive: ReadonlyMap<string, boolean>;
  onActiveChange: (monitor: TMonitor, active: boolean) => void;
  onEdit: (monitor: TMonitor) => void;
  onDelete: (monitor: TMonitor) => void;
};

/** The line's SVD or MVD monitors: Active switch, name, edit and delete (spec settings §2.7). */
export function MonitorsGrid(p: MonitorsGridProps) {
  const { pendingActive, onActiveChange, onEdit, onDelete } = p;
  const columns = useMemo<GridColDef<TMonitor>[]>(
    () => [
      {
        field: "active",
        headerName: T.activeColumn,
        width: 110,
        sortable: false,
        renderCell: ({ row, tabIndex }) => (
          <Switch
            checked={pendingActive.get(row.monitor_uuid) ?? row.active}
            disabled={pendingActive.has(row.monitor_uuid)}
            onChange={(_, checked) => onActiveChange(row, checked)}
            slotProps={{ input: { "aria-label": T.activeLabel(row.monitor_name), tabIndex } }}
          />
        ),
      },
      { field: "monitor_name", headerName: T.nameColumn, flex: 1, minWidth: 240 },
      {
        field: "actions",
        type: "actions",
        width: 120,
        getActions: ({ row }) => [
          <GridActionsCellItem
            key="edit"
            icon={<EditIcon />}
            label={T.editLabel(row.monitor_name)}
            onClick={() => onEdit(row)}
          />,
          <GridActionsCellItem
            key="delete"
            icon={<DeleteIcon />}
            label={T.deleteLabel(row.monitor_name)}
            onClick={() => onDelete(row)}
          />,
        ],
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
      initialState={{
        sorting: { sortModel: DEFAULT_SORT },
        pagination: { paginationModel: { pageSize: SETTINGS_GRID_PAGE_SIZE } },
      }}
    />
  );
}
