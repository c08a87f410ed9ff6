import { LINE_MANAGEMENT_TEXTS, LINE_MESSAGES } from "@linewatch/contracts";
import MoreVertIcon from "@mui/icons-material/MoreVert";
import { Chip, IconButton, Menu, MenuItem, Stack, Tab, Tabs, Tooltip } from "@mui/material";
import { useMemo, useState } from "react";
import { formatDateTime } from "../../../../shared/format";
import { useTexts } from "../../../../shared/i18n/language";
import { SettingsGrid } from "../../../../shared/ui/settings/SettingsGrid";
import type { SettingsColumn } from "../../../../shared/ui/settings/settings-grid";
import { filterLines, type LineFilter, type LineRow } from "../lines.form";

export type PartMarriageLinesGridProps = {
  rows: LineRow[];
  timeZone: string;
  isLoading: boolean;
  isError: boolean;
  onConfigure: (row: LineRow) => void;
};

const TABS: { value: LineFilter; tab: keyof (typeof LINE_MANAGEMENT_TEXTS)["tabs"] }[] = [
  { value: "active", tab: "enabled" },
  { value: "inactive", tab: "disabled" },
  { value: "all", tab: "all" },
];

/** The short name of a time zone ("EST"), for the Last Data received header. */
const zoneName = (timeZone: string) =>
  new Intl.DateTimeFormat("en-US", { timeZone, timeZoneName: "short" })
    .formatToParts(new Date())
    .find((x) => x.type === "timeZoneName")?.value ?? timeZone;

/**
 * Line Management with part marriage (requirements.md settings §2.9): tabs Enabled / Disabled / All, the
 * Status chip, the new-line marker, Last Data received in the plant's time zone with the
 * 'No Ingestion' chip, Active Monitors with its tooltip, and the row menu's Configure Line.
 */
export function PartMarriageLinesGrid(p: PartMarriageLinesGridProps) {
  const T = useTexts(LINE_MANAGEMENT_TEXTS);
  const [tab, setTab] = useState<LineFilter>("active");
  const [menu, setMenu] = useState<{ anchor: HTMLElement; row: LineRow } | null>(null);
  const shown = useMemo(() => filterLines(p.rows, tab), [p.rows, tab]);
  const { timeZone } = p;

  const columns = useMemo<SettingsColumn<LineRow>[]>(
    () => [
      {
        field: "active",
        headerName: T.columns.status,
        width: 130,
        renderCell: ({ row }) => (
          <Chip
            size="small"
            label={row.active ? T.enabled : T.disabled}
            color={row.active ? "success" : "default"}
            variant={row.active ? "filled" : "outlined"}
          />
        ),
      },
      {
        field: "label",
        headerName: T.columns.lineName,
        flex: 1,
        minWidth: 180,
        renderCell: ({ row }) => (
          <Stack direction="row" spacing={1} sx={{ alignItems: "center", height: "100%" }}>
            <span>{row.label}</span>
            {row.isNewLine && <Chip size="small" color="info" label={T.newLine} />}
          </Stack>
        ),
      },
      {
        field: "lastIngestedTime",
        headerName: `${T.columns.lastDataReceived} (${zoneName(timeZone)})`,
        width: 290,
        renderCell: ({ row }) => (
          <Stack direction="row" spacing={1} sx={{ alignItems: "center", height: "100%" }}>
            <span>{row.lastIngestedTime ? formatDateTime(row.lastIngestedTime, timeZone) : "–"}</span>
            {row.noIngestion && <Chip size="small" color="error" label={LINE_MESSAGES.noIngestion} />}
          </Stack>
        ),
      },
      {
        field: "activeMonitors",
        headerName: T.columns.activeMonitors,
        type: "number",
        width: 160,
        renderHeader: () => (
          <Tooltip title={T.activeMonitorsTooltip}>
            <span>{T.columns.activeMonitors}</span>
          </Tooltip>
        ),
      },
      {
        field: "menu",
        headerName: "",
        width: 70,
        sortable: false,
        renderCell: ({ row }) => (
          <IconButton
            aria-label={`${T.moreActions} ${row.label}`}
            aria-haspopup="menu"
            onClick={(e) => setMenu({ anchor: e.currentTarget, row })}
          >
            <MoreVertIcon />
          </IconButton>
        ),
      },
    ],
    [T, timeZone],
  );

  return (
    <>
      <SettingsGrid<LineRow>
        label={T.title}
        emptyText={T.empty}
        toolbar={
          <Tabs value={tab} onChange={(_, v: LineFilter) => setTab(v)} sx={{ px: 2 }}>
            {TABS.map((t) => (
              <Tab key={t.value} value={t.value} label={T.tabs[t.tab]} />
            ))}
          </Tabs>
        }
        rows={shown}
        columns={columns}
        loading={p.isLoading}
        isError={p.isError}
        initialState={{ sorting: { sortModel: [{ field: "label", sort: "asc" }] } }}
      />
      <Menu open={menu != null} anchorEl={menu?.anchor} onClose={() => setMenu(null)}>
        <MenuItem
          onClick={() => {
            const row = menu?.row;
            setMenu(null);
            if (row) p.onConfigure(row);
          }}
        >
          {T.configureLine}
        </MenuItem>
      </Menu>
    </>
  );
}
