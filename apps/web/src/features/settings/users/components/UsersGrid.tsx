import type { TUserRole, TUserRow } from "@linewatch/contracts";
import { Box, Paper } from "@mui/material";
import {
  DataGrid,
  type GridApi,
  type GridEventListener,
  GridRowEditStopReasons,
  GridRowModes,
  type GridRowModesModel,
  type GridSortModel,
} from "@mui/x-data-grid";
import { type RefObject, useCallback, useEffect, useMemo, useRef, useState } from "react";
import type { LocationKey, LocationOption } from "../users.location";
import { locationLabel } from "../users.location";
import { DEFAULT_USER_SORT, sortUsers } from "../users.sort";
import { UsersToolbar } from "./UsersToolbar";
import { type TUserGridRow, userColumns } from "./userColumns";

const NEW_ROW_ID = "new-user";

export type UsersGridProps = {
  /** Lets the page move the focus to a row (after the link dialog closes). */
  apiRef: RefObject<GridApi | null>;
  users: TUserGridRow[];
  timeZone: string;
  showLocation: boolean;
  canDelete: boolean;
  meId: string | undefined;
  /** Location of a new row until the administrator picks another (the selected plant). */
  defaultLocation: LocationKey;
  isSaving: boolean;
  busyIds: ReadonlySet<string>;
  locationOptionsOf: (row: TUserGridRow) => { options: LocationOption[]; isReadOnly: boolean };
  /** Saves the new row; resolves to the added user, or null when it was not saved (message shown). */
  onAdd: (values: { email: string; location: LocationKey }) => Promise<TUserRow | null>;
  onRoleChange: (row: TUserGridRow, role: TUserRole) => void;
  onLocationChange: (row: TUserGridRow, key: LocationKey) => void;
  onDelete: (row: TUserGridRow) => void;
};

/**
 * The Users grid (spec settings §2.6, §4 "User row"): only the one new row is editable; it sits
 * on top in edit mode with the focus in Email. Enter saves it, Escape cancels it.
 */
export function UsersGrid(p: UsersGridProps) {
  const [draft, setDraft] = useState<TUserGridRow | null>(null);
  const [rowModesModel, setRowModesModel] = useState<GridRowModesModel>({});
  const [sortModel, setSortModel] = useState<GridSortModel>(DEFAULT_USER_SORT);
  const [paginationModel, setPaginationModel] = useState({ page: 0, pageSize: 25 });
  // The user just added stays on top (back in view mode) until the sort changes.
  const [pinnedId, setPinnedId] = useState<string | null>(null);
  const addButtonRef = useRef<HTMLButtonElement>(null);
  // After Cancel the focus goes back to Add user, once it is enabled again.
  const isFocusAddPending = useRef(false);
  useEffect(() => {
    if (draft == null && isFocusAddPending.current) {
      isFocusAddPending.current = false;
      addButtonRef.current?.focus();
    }
  }, [draft]);

  const { locationOptionsOf } = p;
  const rows = useMemo(() => {
    const sorted = sortUsers(p.users, sortModel, (r) =>
      locationLabel(r.location, locationOptionsOf(r).options),
    );
    const pinned = sorted.find((r) => r.id === pinnedId);
    const rest = pinned ? sorted.filter((r) => r !== pinned) : sorted;
    return [...(draft ? [draft] : []), ...(pinned ? [pinned] : []), ...rest];
  }, [p.users, sortModel, locationOptionsOf, pinnedId, draft]);

  /**
   * Forgets the grid's focused cell before the new row goes away: otherwise the grid moves the
   * focus to the next row's cell, out of the link dialog or away from Add user.
   */
  const releaseGridFocus = useCallback(() => {
    p.apiRef.current?.setState((state) => ({
      ...state,
      focus: { cell: null, columnHeader: null, columnHeaderFilter: null, columnGroupHeader: null },
    }));
  }, [p.apiRef]);

  const handleAdd = () => {
    setDraft({
      id: NEW_ROW_ID,
      email: "",
      lastLogin: null,
      role: "user",
      locationName: null,
      locationPlantId: null,
      isProviderStaff: false,
      location: p.defaultLocation,
      isNew: true,
    });
    setPinnedId(null);
    setPaginationModel((m) => ({ ...m, page: 0 }));
    setRowModesModel({ [NEW_ROW_ID]: { mode: GridRowModes.Edit, fieldToFocus: "email" } });
  };

  // Save leaves edit mode, which hands the row to processRowUpdate.
  const handleSave = useCallback(
    (id: string) => setRowModesModel((m) => ({ ...m, [id]: { mode: GridRowModes.View } })),
    [],
  );

  const handleCancel = useCallback(
    (id: string) => {
      releaseGridFocus();
      setRowModesModel((m) => ({ ...m, [id]: { mode: GridRowModes.View, ignoreModifications: true } }));
      setDraft(null);
      isFocusAddPending.current = true;
    },
    [releaseGridFocus],
  );

  const processRowUpdate = async (row: TUserGridRow) => {
    if (!row.isNew) return row;
    const user = await p.onAdd({ email: row.email, location: row.location });
    // A rejection keeps the row in edit mode with what was typed.
    if (!user) throw new Error("not saved");
    releaseGridFocus();
    setDraft(null);
    setPinnedId(user.id);
    setRowModesModel({});
    return { ...row, isNew: false };
  };

  const handleRowEditStop: GridEventListener<"rowEditStop"> = (params, event) => {
    // Clicking elsewhere keeps the new row open; Escape is Cancel.
    if (params.reason === GridRowEditStopReasons.rowFocusOut) event.defaultMuiPrevented = true;
    if (params.reason === GridRowEditStopReasons.escapeKeyDown) {
      event.defaultMuiPrevented = true;
      handleCancel(String(params.id));
    }
  };

  const columns = useMemo(
    () =>
      userColumns({
        timeZone: p.timeZone,
        showLocation: p.showLocation,
        canDelete: p.canDelete,
        meId: p.meId,
        isSaving: p.isSaving,
        busyIds: p.busyIds,
        locationOptionsOf: p.locationOptionsOf,
        onRoleChange: p.onRoleChange,
        onLocationChange: p.onLocationChange,
        onDelete: p.onDelete,
        onSave: handleSave,
        onCancel: handleCancel,
      }),
    [
      p.timeZone,
      p.showLocation,
      p.canDelete,
      p.meId,
      p.isSaving,
      p.busyIds,
      p.locationOptionsOf,
      p.onRoleChange,
      p.onLocationChange,
      p.onDelete,
      handleSave,
      handleCancel,
    ],
  );

  return (
    <Paper variant="outlined" sx={{ display: "flex", flexDirection: "column" }}>
      <UsersToolbar
        addButtonRef={addButtonRef}
        total={p.users.length}
        isAddDisabled={draft != null}
        onAdd={handleAdd}
      />
      <Box sx={{ height: "calc(100vh - 240px)", minHeight: 320 }}>
        <DataGrid
          // No eval(): the Content-Security-Policy allows no unsafe-eval (the filter code is slower, not wrong).
          disableEval
          apiRef={p.apiRef}
          aria-label="Users"
          rows={rows}
          columns={columns}
          editMode="row"
          rowModesModel={rowModesModel}
          onRowModesModelChange={setRowModesModel}
          onRowEditStop={handleRowEditStop}
          isCellEditable={(params) => params.row.isNew === true}
          processRowUpdate={processRowUpdate}
          onProcessRowUpdateError={() => {
            // Already shown to the user by onAdd.
          }}
          // Sorted here so the new row stays on top (see sortUsers).
          sortingMode="server"
          sortModel={sortModel}
          onSortModelChange={(m) => {
            setSortModel(m);
            setPinnedId(null);
          }}
          sortingOrder={["desc", "asc"]}
          paginationModel={paginationModel}
          onPaginationModelChange={setPaginationModel}
          pageSizeOptions={[25, 50, 100]}
          disableColumnFilter
          disableRowSelectionOnClick
          localeText={{ noRowsLabel: "No users found" }}
          sx={{ border: 0 }}
        />
      </Box>
    </Paper>
  );
}
