import { INTEGRATION_MESSAGES as M, SETTINGS_GRID_PAGE_SIZE } from "@linewatch/contracts";
import SendIcon from "@mui/icons-material/Send";
import { Typography } from "@mui/material";
import { useEffect, useMemo } from "react";
import { ApiError } from "../../../../shared/api/client";
import { formatDateTime } from "../../../../shared/format";
import { inlineEditColumn } from "../../../../shared/ui/settings/InlineEditCell";
import { InlineEditGrid, inlineEditActions } from "../../../../shared/ui/settings/InlineEditGrid";
import { SettingsGrid } from "../../../../shared/ui/settings/SettingsGrid";
import { GridActionsCellItem, type SettingsColumn } from "../../../../shared/ui/settings/settings-grid";
import { type InlineFieldError, useInlineRowEdit } from "../../../../shared/ui/settings/useInlineRowEdit";
import { hasFailedDelivery, type TTeamsRow } from "../notifications.rows";
import { deliveryHealthColumn, lastTestColumn } from "./deliveryColumns";
import { CellBox, DELIVERY_FAILED_ROW_CLASS, deliveryFailedRowSx, StatusChip } from "./IntegrationStatus";

/** A save refused before or by the server, with the text to put under the Webhook URL field. */
export class WebhookUrlError extends Error {}

export type TeamsGridProps = {
  rows: TTeamsRow[];
  timeZone: string;
  isError: boolean;
  /** Administrators edit, delete and test; other users see the grid read-only. */
  canEdit: boolean;
  testingId: string | null;
  /** Saves the typed URL; rejects with WebhookUrlError or an ApiError to keep the row open. */
  onSave: (row: TTeamsRow, url: string) => Promise<TTeamsRow>;
  onDelete: (row: TTeamsRow) => void;
  onTest: (row: TTeamsRow) => void;
  /** A row opened or closed for editing (the page guards leaving while one is open). */
  onEditingChange?: (isEditing: boolean) => void;
};

/** The server's reason under the field: the URL was refused (400) or not saved for another reason. */
const fieldErrorOf = (error: unknown): InlineFieldError | null => {
  if (error instanceof WebhookUrlError) return { field: "url", message: error.message };
  if (error instanceof ApiError && error.status === 400) return { field: "url", message: error.message };
  return null;
};

/**
 * Microsoft Teams grid (requirements.md settings §2.2, §4 "Teams row"): one row per line, sorted by line;
 * Edit opens the Webhook URL input in the row (Enter saves, Escape cancels), a refused URL keeps
 * what was typed with the server's reason under it. Delete only when Configured.
 */
export function TeamsGrid(p: TeamsGridProps) {
  const edit = useInlineRowEdit<TTeamsRow>({
    onSave: (row) => p.onSave(row, row.url.trim()),
    fieldErrorOf,
  });

  const { timeZone, canEdit, testingId, onDelete, onTest, onEditingChange } = p;
  const isEditing = edit.editingId != null;
  useEffect(() => {
    onEditingChange?.(isEditing);
  }, [isEditing, onEditingChange]);
  const columns = useMemo<SettingsColumn<TTeamsRow>[]>(() => {
    const cols: SettingsColumn<TTeamsRow>[] = [
      { field: "line", headerName: M.columns.line, flex: 1, minWidth: 140 },
      {
        field: "configuredAt",
        headerName: M.columns.dateConfigured,
        width: 200,
        valueFormatter: (_v, row) => (row.configuredAt ? formatDateTime(row.configuredAt, timeZone) : ""),
      },
      {
        field: "status",
        headerName: M.columns.status,
        width: 150,
        renderCell: ({ row }) => <StatusChip label={row.status} />,
      },
      inlineEditColumn<TTeamsRow>({
        field: "url",
        headerName: M.webhookUrl,
        flex: 1,
        minWidth: 180,
        sortable: false,
        editable: canEdit,
        placeholder: "https://…",
        inputMode: "url",
        inputLabel: () => M.webhookUrl,
        // The stored URL is a secret: only its host is shown (requirements.md settings §3 "Teams webhook").
        renderCell: ({ row }) => (
          <CellBox>
            <Typography variant="body2" color="text.secondary" noWrap>
              {row.urlHost ?? ""}
            </Typography>
          </CellBox>
        ),
      }),
      lastTestColumn<TTeamsRow>({ timeZone, valueOf: (r) => r.lastTest }),
      deliveryHealthColumn<TTeamsRow>({ timeZone, valueOf: (r) => r.health }),
    ];
    if (!canEdit) return cols.map((c) => (c.field === "url" ? { ...c, editable: false } : c));
    // The row's actions right after the spec's columns (Line, Date Configured, Status), before the
    // delivery columns: in view at every window size from 1280 px (issue 32 §1).
    const actionsAt = cols.findIndex((c) => c.field === "status") + 1;
    cols.splice(actionsAt, 0, {
      field: "actions",
      type: "actions",
      headerName: "",
      width: 130,
      getActions: ({ id, row }) => {
        const actions = inlineEditActions(edit, id, {
          name: row.line,
          field: "url",
          onDelete: row.webhookId ? () => onDelete(row) : undefined,
        });
        if (!row.webhookId || edit.isEditing(id)) return actions;
        return [
          ...actions,
          <GridActionsCellItem
            key="test"
            icon={<SendIcon />}
            label={`${M.sendTest} ${row.line}`}
            disabled={testingId != null || edit.editingId != null}
            onClick={() => onTest(row)}
          />,
        ];
      },
    });
    return cols;
  }, [timeZone, canEdit, testingId, onDelete, onTest, edit]);

  const common = {
    label: M.teamsTitle,
    emptyText: M.noLines,
    isError: p.isError,
    rows: p.rows,
    columns,
    initialState: {
      sorting: { sortModel: [{ field: "line", sort: "asc" as const }] },
      pagination: { paginationModel: { pageSize: SETTINGS_GRID_PAGE_SIZE } },
    },
    getRowClassName: ({ row }: { row: TTeamsRow }) =>
      hasFailedDelivery(row.health) ? DELIVERY_FAILED_ROW_CLASS : "",
    sx: deliveryFailedRowSx,
  };
  return canEdit ? (
    <InlineEditGrid<TTeamsRow> {...common} edit={edit} />
  ) : (
    <SettingsGrid<TTeamsRow> {...common} />
  );
}
