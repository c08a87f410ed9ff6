import { SETTINGS_KIT_MESSAGES } from "@linewatch/contracts";
import CloseIcon from "@mui/icons-material/Close";
import DeleteIcon from "@mui/icons-material/DeleteOutlined";
import EditIcon from "@mui/icons-material/EditOutlined";
import SaveIcon from "@mui/icons-material/Save";
import { alpha, Chip } from "@mui/material";
import type { ReactElement } from "react";
import { currentLanguage, textsIn, useTexts } from "../../i18n/language";
import { InlineEditContext } from "./InlineEditCell";
import { SettingsGrid, type SettingsGridProps } from "./SettingsGrid";
import { GridActionsCellItem, type GridRowId } from "./settings-grid";
import { type InlineRowEdit, UNSAVED_ROW_CLASS } from "./useInlineRowEdit";

/**
 * A SettingsGrid whose rows are edited in place by `edit` (useInlineRowEdit): its row editing,
 * its edit cells' messages, and unsaved rows marked (a bar at the row's start and a tint).
 */
export function InlineEditGrid<R extends object>({
  edit,
  ...grid
}: Omit<SettingsGridProps<R>, "rowEdit"> & { edit: InlineRowEdit<R> }) {
  return (
    <InlineEditContext.Provider value={edit}>
      <SettingsGrid<R>
        {...edit.gridProps}
        {...grid}
        sx={[
          {
            [`& .${UNSAVED_ROW_CLASS}`]: {
              bgcolor: (t) => alpha(t.palette.warning.main, 0.08),
              boxShadow: (t) => `inset 4px 0 0 ${t.palette.warning.main}`,
            },
          },
          ...(Array.isArray(grid.sx) ? grid.sx : [grid.sx]),
        ]}
      />
    </InlineEditContext.Provider>
  );
}

/** Says 'Unsaved' in a row whose edits wait for Save Changes (the row's tint is not read out). */
export function UnsavedChip<R extends object>({ edit, id }: { edit: InlineRowEdit<R>; id: GridRowId }) {
  const M = useTexts(SETTINGS_KIT_MESSAGES);
  if (!edit.isUnsaved(id)) return null;
  return <Chip size="small" color="warning" variant="outlined" label={M.unsaved} />;
}

/**
 * The actions of a row edited in place (Microsoft Teams: Edit, Save, Cancel, Delete): Save and
 * Cancel while the row is in edit (disabled while its save runs), else Edit (disabled while
 * another row is in edit) and Delete when `onDelete` is given. `name` words the buttons for a
 * screen reader ("Edit Line 1").
 */
export function inlineEditActions<R extends object>(
  edit: InlineRowEdit<R>,
  id: GridRowId,
  o: { name?: string; field?: string; canEdit?: boolean; onDelete?: () => void } = {},
): ReactElement[] {
  // Called while a cell renders: the language on show (a new language draws the grid anew).
  const M = textsIn(SETTINGS_KIT_MESSAGES, currentLanguage());
  const item = (text: string, icon: ReactElement, disabled: boolean, onClick: () => void) => (
    <GridActionsCellItem
      key={text}
      icon={icon}
      label={o.name ? `${text} ${o.name}` : text}
      disabled={disabled}
      onClick={onClick}
    />
  );
  if (edit.isEditing(id)) {
    const isPending = edit.pendingId != null;
    return [
      item(M.save, <SaveIcon />, isPending, () => edit.save(id)),
      item(M.cancel, <CloseIcon />, isPending, () => edit.cancel(id)),
    ];
  }
  const isOtherOpen = edit.editingId != null;
  return [
    ...(o.canEdit === false ? [] : [item(M.edit, <EditIcon />, isOtherOpen, () => edit.start(id, o.field))]),
    ...(o.onDelete ? [item(M.delete, <DeleteIcon />, isOtherOpen, o.onDelete)] : []),
  ];
}
