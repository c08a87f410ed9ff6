import { ETQ_MESSAGES, INTEGRATION_MESSAGES as M } from "@linewatch/contracts";
import CableIcon from "@mui/icons-material/Cable";
import DeleteIcon from "@mui/icons-material/DeleteOutlined";
import EditIcon from "@mui/icons-material/EditOutlined";
import type { ReactNode } from "react";
import { formatDateTime } from "../../../../shared/format";
import { expandColumn } from "../../../../shared/ui/settings/ExpandToggle";
import { type FlatRow, isParentRow } from "../../../../shared/ui/settings/expandable-rows";
import { SettingsGrid } from "../../../../shared/ui/settings/SettingsGrid";
import { GridActionsCellItem, type SettingsColumn } from "../../../../shared/ui/settings/settings-grid";
import type { ExpandableRows } from "../../../../shared/ui/settings/useExpandableRows";
import { hasFailedDelivery, type TEtqRow } from "../notifications.rows";
import { deliveryHealthColumn, lastTestColumn } from "./deliveryColumns";
import { DELIVERY_FAILED_ROW_CLASS, deliveryFailedRowSx, StatusChip } from "./IntegrationStatus";

type Row = FlatRow<TEtqRow, never>;

export type EtqGridProps = {
  tree: ExpandableRows<TEtqRow>;
  timeZone: string;
  isError: boolean;
  canEdit: boolean;
  editingId: string | null;
  testingId: string | null;
  toolbar: ReactNode;
  renderForm: (row: TEtqRow) => ReactNode;
  onEdit: (row: TEtqRow) => void;
  onDelete: (row: TEtqRow) => void;
  onTest: (row: TEtqRow) => void;
  /** A row's expand toggle (the page asks before collapsing a form with typed changes). */
  onToggle: (id: string) => void;
};

const isParent = isParentRow<TEtqRow, never>;

/**
 * ETQ Reliance grid (requirements.md settings §2.3): Line, Date Configured, Status with the connection chip,
 * and Edit / Delete (only when configured); a row expands into its form. Test connection and the
 * last test and delivery health per line are issue #13's.
 */
export function EtqGrid(p: EtqGridProps) {
  const parentCell =
    (render: (row: TEtqRow) => ReactNode) =>
    ({ row }: { row: Row }) =>
      isParent(row) ? render(row) : null;

  const columns: SettingsColumn<Row>[] = [
    expandColumn<TEtqRow, never>({
      tree: { ...p.tree, toggle: p.onToggle },
      isIconOnly: true,
      width: 64,
      label: (r, isExpanded) => `${isExpanded ? "Hide" : "Show"} ETQ configuration of ${r.line}`,
      renderDetail: p.renderForm,
    }),
    { field: "line", headerName: M.columns.line, flex: 1, minWidth: 140 },
    {
      field: "configuredAt",
      headerName: M.columns.dateConfigured,
      width: 200,
      renderCell: parentCell((r) => (r.configuredAt ? formatDateTime(r.configuredAt, p.timeZone) : "")),
    },
    {
      field: "status",
      headerName: M.columns.status,
      width: 180,
      renderCell: parentCell((r) => <StatusChip label={r.chip} />),
    },
    lastTestColumn<Row>({
      timeZone: p.timeZone,
      isShown: isParent,
      valueOf: (r) => (isParent(r) ? r.lastTest : null),
    }),
    deliveryHealthColumn<Row>({
      timeZone: p.timeZone,
      isShown: isParent,
      valueOf: (r) => (isParent(r) ? r.health : null),
    }),
  ];
  if (p.canEdit) {
    // The row's actions right after the spec's columns (Line, Date Configured, Status), before the
    // delivery columns: in view at every window size from 1280 px (issue 32 §1).
    columns.splice(columns.findIndex((c) => c.field === "status") + 1, 0, {
      field: "actions",
      type: "actions",
      headerName: "",
      width: 130,
      getActions: ({ row: r }) => {
        if (!isParent(r)) return [];
        const isBusy = p.editingId != null;
        const item = (label: string, icon: ReactNode, onClick: () => void, disabled = isBusy) => (
          <GridActionsCellItem
            key={label}
            icon={icon as never}
            label={`${label} ${r.line}`}
            disabled={disabled}
            onClick={onClick}
          />
        );
        return [
          item("Edit", <EditIcon />, () => p.onEdit(r)),
          ...(r.config
            ? [
                item("Delete", <DeleteIcon />, () => p.onDelete(r)),
                item(M.testConnection, <CableIcon />, () => p.onTest(r), isBusy || p.testingId != null),
              ]
            : []),
        ];
      },
    });
  }

  return (
    <SettingsGrid<Row>
      label={ETQ_MESSAGES.title}
      emptyText={ETQ_MESSAGES.empty}
      isError={p.isError}
      toolbar={p.toolbar}
      columns={columns}
      {...p.tree.gridProps}
      getRowClassName={({ row }) =>
        isParent(row) && hasFailedDelivery(row.health) ? DELIVERY_FAILED_ROW_CLASS : ""
      }
      sx={deliveryFailedRowSx}
    />
  );
}
