import { type TUserRole, type TUserRow, USER_MESSAGES, USER_ROLES } from "@linewatch/contracts";
import DeleteIcon from "@mui/icons-material/DeleteOutlined";
import LockResetIcon from "@mui/icons-material/LockReset";
import { formatDateTime } from "../../../../shared/format";
import { InlineEditCell } from "../../../../shared/ui/settings/InlineEditCell";
import { inlineEditActions } from "../../../../shared/ui/settings/InlineEditGrid";
import {
  GridActionsCellItem,
  type GridRenderCellParams,
  type SettingsColumn,
} from "../../../../shared/ui/settings/settings-grid";
import type { InlineRowEdit } from "../../../../shared/ui/settings/useInlineRowEdit";
import type { LocationKey, LocationOption } from "../users.location";
import { CellSelect } from "./CellSelect";

/** A grid row: a saved user, or the one new row being added (requirements.md settings §3 "User row"). */
export type TUserGridRow = TUserRow & { isNew?: boolean; location: LocationKey };

export type UserColumnsOptions = {
  timeZone: string;
  showLocation: boolean;
  canDelete: boolean;
  meId: string | undefined;
  /** The new row's edit: its Save and Cancel. */
  edit: InlineRowEdit<TUserGridRow>;
  busyIds: ReadonlySet<string>;
  locationOptionsOf: (row: TUserGridRow) => { options: LocationOption[]; isReadOnly: boolean };
  onRoleChange: (row: TUserGridRow, role: TUserRole) => void;
  onLocationChange: (row: TUserGridRow, key: LocationKey) => void;
  onDelete: (row: TUserGridRow) => void;
  /** Whether the administrator may send this user a new password link (issue 33 §2). */
  canSendPasswordLink: (row: TUserGridRow) => boolean;
  /** The row action's accessible name, in the interface's language. */
  passwordLinkLabel: (email: string) => string;
  onSendPasswordLink: (row: TUserGridRow) => void;
};

const roleOptions = USER_ROLES.map((r) => ({ key: r, label: r }));

export function userColumns(o: UserColumnsOptions): SettingsColumn<TUserGridRow>[] {
  const isOwn = (row: TUserGridRow) => row.id === o.meId;

  const locationCell = (p: GridRenderCellParams<TUserGridRow>, isEdit: boolean) => {
    const { options, isReadOnly } = o.locationOptionsOf(p.row);
    const value = isEdit ? String(p.value ?? "") : p.row.location;
    return (
      <CellSelect
        value={value}
        options={options}
        ariaLabel={`Location of ${p.row.email || "new user"}`}
        tabIndex={isEdit ? 0 : p.tabIndex}
        readOnly={isReadOnly}
        isInEditCell={isEdit}
        disabled={o.busyIds.has(p.row.id)}
        onChange={(key) => {
          if (isEdit) p.api.setEditCellValue({ id: p.id, field: p.field, value: key });
          else o.onLocationChange(p.row, key);
        }}
      />
    );
  };

  const columns: SettingsColumn<TUserGridRow>[] = [
    {
      field: "email",
      headerName: USER_MESSAGES.columns.email,
      flex: 1,
      minWidth: 220,
      editable: true,
      renderEditCell: (p) => (
        <InlineEditCell {...p} label={USER_MESSAGES.columns.email} placeholder="name@company.com" />
      ),
    },
    {
      field: "lastLogin",
      headerName: USER_MESSAGES.columns.lastLogin,
      width: 210,
      renderCell: (p) =>
        p.row.lastLogin ? formatDateTime(p.row.lastLogin, o.timeZone) : USER_MESSAGES.neverLoggedIn,
    },
    {
      field: "role",
      headerName: USER_MESSAGES.columns.role,
      width: 170,
      renderCell: (p) => (
        <CellSelect
          value={p.row.role}
          options={roleOptions}
          ariaLabel={`Role of ${p.row.email || "new user"}`}
          tabIndex={p.tabIndex}
          // A new user starts as a user; nobody demotes themselves (the server refuses it too).
          disabled={p.row.isNew || isOwn(p.row) || o.busyIds.has(p.row.id)}
          onChange={(role) => role !== p.row.role && o.onRoleChange(p.row, role as TUserRole)}
        />
      ),
    },
  ];

  if (o.showLocation) {
    columns.push({
      field: "location",
      headerName: USER_MESSAGES.columns.location,
      width: 200,
      editable: true,
      renderCell: (p) => locationCell(p, false),
      renderEditCell: (p) => locationCell(p, true),
    });
  }

  columns.push({
    field: "actions",
    type: "actions",
    headerName: USER_MESSAGES.columns.actions,
    width: 110,
    getActions: ({ row }) => {
      if (row.isNew) return inlineEditActions(o.edit, row.id);
      const actions = [];
      if (o.canSendPasswordLink(row)) {
        actions.push(
          <GridActionsCellItem
            key="password-link"
            icon={<LockResetIcon />}
            label={o.passwordLinkLabel(row.email)}
            disabled={o.busyIds.has(row.id)}
            onClick={() => o.onSendPasswordLink(row)}
          />,
        );
      }
      if (o.canDelete && !isOwn(row)) {
        actions.push(
          <GridActionsCellItem
            key="delete"
            icon={<DeleteIcon />}
            label={`Delete ${row.email}`}
            disabled={o.busyIds.has(row.id)}
            onClick={() => o.onDelete(row)}
          />,
        );
      }
      return actions;
    },
  });
  return columns;
}
