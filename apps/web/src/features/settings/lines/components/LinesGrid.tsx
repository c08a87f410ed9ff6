import { LINE_MANAGEMENT_TEXTS } from "@linewatch/contracts";
import { localizeText, useTexts } from "../../../../shared/i18n/language";

/** A rule's message (English, the catalogue's) in the interface's language. */
const localized = (message: string | null) => (message == null ? null : localizeText(message));

import DownloadIcon from "@mui/icons-material/FileDownloadOutlined";
import TuneIcon from "@mui/icons-material/TuneOutlined";
import { Button, Stack, Switch, ToggleButton, ToggleButtonGroup, Tooltip, Typography } from "@mui/material";
import { useMemo, useState } from "react";
import { formatDateTime } from "../../../../shared/format";
import { inlineEditColumn } from "../../../../shared/ui/settings/InlineEditCell";
import { InlineEditGrid, inlineEditActions } from "../../../../shared/ui/settings/InlineEditGrid";
import { GridActionsCellItem, type SettingsColumn } from "../../../../shared/ui/settings/settings-grid";
import type { InlineRowEdit } from "../../../../shared/ui/settings/useInlineRowEdit";
import {
  filterLines,
  type LineFilter,
  type LineRow,
  lineCounts,
  parseThresholdText,
  validateAlertFilterText,
  validateThresholdText,
} from "../lines.form";

export type LinesGridProps = {
  rows: LineRow[];
  edit: InlineRowEdit<LineRow>;
  timeZone: string;
  isLoading: boolean;
  isError: boolean;
  canConfigure: boolean;
  busyIds: ReadonlySet<string>;
  onToggleActive: (row: LineRow) => void;
  onConfigure: (row: LineRow) => void;
  onExport: (rows: LineRow[]) => void;
};

/**
 * Line Management without part marriage (requirements.md settings §2.9): the header bar with the Active,
 * Inactive and Total counts (each one a filter of the grid), the Line Active switch, the two
 * values edited in place, Configure Line behind the friendly-name flag, and the export.
 */
export function LinesGrid(p: LinesGridProps) {
  const T = useTexts(LINE_MANAGEMENT_TEXTS);
  const [filter, setFilter] = useState<LineFilter>("all");
  const counts = lineCounts(p.rows);
  const shown = useMemo(() => filterLines(p.rows, filter), [p.rows, filter]);
  const { edit, timeZone, busyIds, canConfigure, onToggleActive, onConfigure } = p;

  const columns = useMemo<SettingsColumn<LineRow>[]>(
    () => [
      { field: "label", headerName: T.columns.name, flex: 1, minWidth: 160 },
      {
        field: "active",
        headerName: T.columns.lineActive,
        width: 120,
        sortable: false,
        renderCell: ({ row }) => (
          <Switch
            checked={row.active}
            disabled={busyIds.has(row.id) || edit.editingId != null}
            onChange={() => onToggleActive(row)}
            slotProps={{ input: { "aria-label": `${T.columns.lineActive} ${row.label}`, role: "switch" } }}
          />
        ),
      },
      {
        field: "activeMonitors",
        headerName: T.columns.activeMonitors,
        type: "number",
        width: 140,
        description: T.activeMonitorsTooltip,
      },
      {
        field: "lastIngestedTime",
        headerName: T.columns.lastIngestedTime,
        width: 210,
        valueFormatter: (_v, row) =>
          row.lastIngestedTime ? formatDateTime(row.lastIngestedTime, timeZone) : "–",
      },
      inlineEditColumn<LineRow>({
        field: "ingestionThresholdHours",
        headerName: T.columns.ingestionThreshold,
        width: 230,
        validate: (text) => localized(validateThresholdText(text)),
        parse: parseThresholdText,
        inputLabel: (r) => T.cellInput(T.columns.ingestionThreshold, r.label),
        inputMode: "numeric",
        valueFormatter: (_v, row) =>
          row.ingestionThresholdHours == null ? "–" : String(row.ingestionThresholdHours),
      }),
      inlineEditColumn<LineRow>({
        field: "alertViewingWindowDays",
        headerName: T.columns.overviewAlertFilter,
        description: T.overviewAlertFilterTooltip,
        width: 230,
        validate: (text) => localized(validateAlertFilterText(text)),
        parse: (t) => Number(t.trim()),
        inputLabel: (r) => T.cellInput(T.columns.overviewAlertFilter, r.label),
        inputMode: "numeric",
      }),
      {
        field: "actions",
        type: "actions",
        headerName: T.columns.actions,
        width: 150,
        getActions: ({ row }) => [
          ...inlineEditActions(edit, row.id, { name: row.label, field: "ingestionThresholdHours" }),
          ...(canConfigure && !edit.isEditing(row.id)
            ? [
                <GridActionsCellItem
                  key="configure"
                  icon={
                    <Tooltip title={T.configureLine}>
                      <TuneIcon />
                    </Tooltip>
                  }
                  label={`${T.configureLine} ${row.label}`}
                  disabled={edit.editingId != null}
                  onClick={() => onConfigure(row)}
                />,
              ]
            : []),
        ],
      },
    ],
    [T, edit, timeZone, busyIds, canConfigure, onToggleActive, onConfigure],
  );

  const toolbar = (
    <Stack
      direction="row"
      spacing={2}
      sx={{ px: 2, py: 1, alignItems: "center", borderBottom: 1, borderColor: "divider" }}
    >
      <Typography variant="h6" component="h3" sx={{ flexGrow: 1 }}>
        {T.title}
      </Typography>
      <ToggleButtonGroup
        size="small"
        exclusive
        value={filter}
        onChange={(_, v: LineFilter | null) => v && setFilter(v)}
        aria-label={T.countsLabel}
      >
        <ToggleButton value="active">{`${T.counts.active}: ${counts.active}`}</ToggleButton>
        <ToggleButton value="inactive">{`${T.counts.inactive}: ${counts.inactive}`}</ToggleButton>
        <ToggleButton value="all">{`${T.counts.total}: ${counts.total}`}</ToggleButton>
      </ToggleButtonGroup>
      <Button
        size="small"
        startIcon={<DownloadIcon />}
        disabled={p.rows.length === 0}
        onClick={() => p.onExport(shown)}
      >
        {T.export}
      </Button>
    </Stack>
  );

  return (
    <InlineEditGrid<LineRow>
      edit={edit}
      label={T.title}
      emptyText={T.empty}
      toolbar={toolbar}
      rows={shown}
      columns={columns}
      loading={p.isLoading}
      isError={p.isError}
      initialState={{ sorting: { sortModel: [{ field: "label", sort: "asc" }] } }}
    />
  );
}
