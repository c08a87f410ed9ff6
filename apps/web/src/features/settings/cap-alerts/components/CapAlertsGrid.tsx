import {
  CAPABILITY_MESSAGES,
  CHALLENGE_RANGE_TEXTS,
  CONTROL_RULES_ARL_TEXTS,
  CAP_ALERTS_MESSAGES as M,
  OP_COUNTS,
  RUN_RULE_TEXTS,
  RUN_RULES,
  type TOpCount,
  type TRunRule,
} from "@linewatch/contracts";
import InfoOutlinedIcon from "@mui/icons-material/InfoOutlined";
import ShowChartIcon from "@mui/icons-material/ShowChart";
import WarningIcon from "@mui/icons-material/WarningAmberOutlined";
import {
  Box,
  Button,
  Checkbox,
  IconButton,
  Link,
  ListSubheader,
  MenuItem,
  TextField,
  Tooltip,
  Typography,
} from "@mui/material";
import { useMemo } from "react";
import { Link as RouterLink } from "react-router";
import { SettingsGrid } from "../../../../shared/ui/settings/SettingsGrid";
import type { SettingsColumn } from "../../../../shared/ui/settings/settings-grid";
import type { TCapAlertRow } from "../cap-alerts.rows";

export type CapAlertsGridProps = {
  rows: TCapAlertRow[];
  lineId: string | null;
  emptyText: string;
  isError: boolean;
  isLoading: boolean;
  /** The excluded-parts flag: the two Exclude columns (requirements.md settings §2.4). */
  isExclusionOn: boolean;
  busyIds: ReadonlySet<string>;
  toolbar: React.ReactNode;
  onToggle: (row: TCapAlertRow) => void;
  onEditRules: (row: TCapAlertRow) => void;
  onExclude: (
    row: TCapAlertRow,
    field: "useExcludedPartIds" | "useExcludedModelNumbers",
    value: boolean,
  ) => void;
  onOpCount: (row: TCapAlertRow, opCount: TOpCount) => void;
  onRunRules: (row: TCapAlertRow, runRules: TRunRule[]) => void;
  /** Opens the signal's capability view (issue #14). */
  onCapability: (row: TCapAlertRow) => void;
  /** Opens the cap monitor's challenge ranges (requirements.md monitor-forms §2). */
  onChallengeRanges: (row: TCapAlertRow) => void;
};

const FIRST_COLUMNS: readonly string[] = ["capability", "latestAlert", "challengeRanges"];

/** The Cap Alerts grid (requirements.md settings §2.4): row height 65 from SettingsGrid. */
export function CapAlertsGrid(p: CapAlertsGridProps) {
  const {
    isExclusionOn,
    busyIds,
    onToggle,
    onEditRules,
    onExclude,
    onOpCount,
    onRunRules,
    onCapability,
    onChallengeRanges,
    lineId,
  } = p;
  const columns = useMemo<SettingsColumn<TCapAlertRow>[]>(() => {
    const cols: SettingsColumn<TCapAlertRow>[] = [
      {
        field: "monitor",
        headerName: M.columns.monitor,
        width: 100,
        sortable: false,
        renderCell: ({ row }) => (
          <Checkbox
            checked={!!row.monitor?.active}
            disabled={busyIds.has(row.id)}
            onChange={() => onToggle(row)}
            slotProps={{ input: { "aria-label": M.monitorLabel(row.signal) } }}
          />
        ),
      },
      { field: "station", headerName: M.columns.station, flex: 1, minWidth: 120 },
      { field: "signal", headerName: M.columns.signal, flex: 1, minWidth: 140 },
      {
        field: "alertRules",
        headerName: M.columns.alertRules,
        width: 120,
        sortable: false,
        renderCell: ({ row }) => (
          <Button
            size="small"
            disabled={!row.monitor?.active}
            aria-label={M.editRulesLabel(row.signal)}
            onClick={() => onEditRules(row)}
          >
            {M.edit}
          </Button>
        ),
      },
      {
        field: "warning",
        headerName: "",
        width: 60,
        sortable: false,
        renderCell: ({ row }) =>
          row.hasLimits ? null : row.hasRecordLimits ? (
            <Tooltip title={M.recordLimits}>
              <InfoOutlinedIcon color="action" titleAccess={M.recordLimits} />
            </Tooltip>
          ) : (
            <Tooltip title={M.noLimits}>
              <WarningIcon color="warning" titleAccess={M.noLimits} />
            </Tooltip>
          ),
      },
    ];
    if (isExclusionOn) {
      const exclude = (
        field: "useExcludedPartIds" | "useExcludedModelNumbers",
        headerName: string,
        label: (s: string) => string,
      ): SettingsColumn<TCapAlertRow> => ({
        field,
        headerName,
        width: 190,
        sortable: false,
        renderCell: ({ row }) => {
          // requirements.md settings §4: only active rows have them
          if (!row.monitor?.active) return null;
          const checked =
            field === "useExcludedPartIds"
              ? row.monitor.use_excluded_part_ids
              : row.monitor.use_excluded_model_numbers;
          return (
            <Checkbox
              checked={checked}
              disabled={busyIds.has(row.id)}
              onChange={(e) => onExclude(row, field, e.target.checked)}
              slotProps={{ input: { "aria-label": label(row.signal) } }}
            />
          );
        },
      });
      cols.push(
        exclude("useExcludedPartIds", M.columns.excludeChallengeParts, M.excludePartsLabel),
        exclude("useExcludedModelNumbers", M.columns.excludeModelNumbers, M.excludeModelsLabel),
      );
    }
    cols.push(
      {
        field: "opCount",
        headerName: M.columns.opCount,
        width: 120,
        sortable: false,
        renderCell: ({ row }) =>
          row.monitor?.active ? (
            <TextField
              select
              size="small"
              value={row.monitor.monitor_filter.op_count ?? "ALL"}
              disabled={busyIds.has(row.id)}
              onChange={(e) => onOpCount(row, e.target.value as TOpCount)}
              slotProps={{ htmlInput: { "aria-label": M.opCountLabel(row.signal) } }}
            >
              {OP_COUNTS.map((o) => (
                <MenuItem key={o} value={o}>
                  {o}
                </MenuItem>
              ))}
            </TextField>
          ) : null,
      },
      {
        field: "runRules",
        headerName: M.columns.runRules,
        width: 170,
        sortable: false,
        renderCell: ({ row }) => {
          if (!row.monitor?.active) return null;
          const chosen = row.monitor.monitor_filter.run_rules ?? [];
          // Issue 29: the chosen rules' in-control false-alarm rate per point (ARL₀), under the
          // select and atop its menu with what the monitor holds per evaluation.
          return (
            <Box sx={{ width: "100%" }}>
              <TextField
                select
                size="small"
                fullWidth
                value={chosen}
                disabled={busyIds.has(row.id)}
                onChange={(e) =>
                  onRunRules(
                    row,
                    (e.target.value as unknown as (TRunRule | undefined)[]).filter(
                      (r): r is TRunRule => r !== undefined,
                    ),
                  )
                }
                slotProps={{
                  select: {
                    multiple: true,
                    displayEmpty: true,
                    renderValue: (v) =>
                      (v as TRunRule[]).length ? `1, ${(v as TRunRule[]).join(", ")}` : "1",
                  },
                  htmlInput: { "aria-label": M.runRulesLabel(row.signal) },
                }}
              >
                <ListSubheader sx={{ lineHeight: 1.4, py: 1, maxWidth: 360, whiteSpace: "normal" }}>
                  {`${CONTROL_RULES_ARL_TEXTS.perPoint(chosen)}. ${CONTROL_RULES_ARL_TEXTS.held}`}
                </ListSubheader>
                {RUN_RULES.map((r) => (
                  <MenuItem key={r} value={r}>
                    {RUN_RULE_TEXTS[r]}
                  </MenuItem>
                ))}
              </TextField>
              <Tooltip title={`${CONTROL_RULES_ARL_TEXTS.perPoint(chosen)}. ${CONTROL_RULES_ARL_TEXTS.held}`}>
                <Typography variant="caption" color="text.secondary" component="div">
                  {CONTROL_RULES_ARL_TEXTS.short(chosen)}
                </Typography>
              </Tooltip>
            </Box>
          );
        },
      },
      {
        field: "challengeRanges",
        headerName: CHALLENGE_RANGE_TEXTS.column,
        width: 150,
        sortable: false,
        renderCell: ({ row }) =>
          row.monitor?.active ? (
            <Button
              size="small"
              aria-label={CHALLENGE_RANGE_TEXTS.editLabel(
                row.signal,
                row.monitor.monitor_filter.challenge_ranges?.length ?? 0,
              )}
              disabled={busyIds.has(row.id)}
              onClick={() => onChallengeRanges(row)}
            >
              {CHALLENGE_RANGE_TEXTS.count(row.monitor.monitor_filter.challenge_ranges?.length ?? 0)}
            </Button>
          ) : null,
      },
      {
        field: "lastState",
        headerName: M.columns.lastState,
        width: 170,
        sortable: false,
        renderCell: ({ row }) => {
          if (!row.monitor) return null;
          const state = row.status?.lastState ?? row.monitor.last_state;
          return (
            <Box>
              <Typography variant="body2">{state ?? M.notEvaluated}</Typography>
              {state && (
                <Typography variant="caption" color="text.secondary">
                  {M.ppk(row.status?.ppk ?? null)}
                </Typography>
              )}
            </Box>
          );
        },
      },
      {
        field: "latestAlert",
        headerName: M.columns.latestAlert,
        width: 120,
        sortable: false,
        renderCell: ({ row }) =>
          row.status?.latestAlertId && lineId ? (
            <Link component={RouterLink} to={`/lines/${lineId}?alert=${row.status.latestAlertId}`}>
              {M.openAlert}
            </Link>
          ) : null,
      },
      {
        field: "capability",
        headerName: CAPABILITY_MESSAGES.open,
        width: 100,
        sortable: false,
        renderCell: ({ row }) =>
          row.hasLimits ? (
            <IconButton
              aria-label={CAPABILITY_MESSAGES.openFor(row.signal)}
              onClick={() => onCapability(row)}
            >
              <ShowChartIcon />
            </IconButton>
          ) : null,
      },
    );
    // What a person acts on (the capability view, the latest alert, the challenge ranges) right
    // after the spec's columns (Monitor … the warning icon), before the exclusions and the
    // settings: in view from 1280 px (issue 32 §1; docs/spec-deviations.md).
    const first = FIRST_COLUMNS.flatMap((f) => cols.filter((c) => c.field === f));
    const rest = cols.filter((c) => !FIRST_COLUMNS.includes(c.field));
    const at = rest.findIndex((c) => c.field === "warning") + 1;
    return [...rest.slice(0, at), ...first, ...rest.slice(at)];
  }, [
    isExclusionOn,
    busyIds,
    onToggle,
    onEditRules,
    onExclude,
    onOpCount,
    onRunRules,
    onCapability,
    onChallengeRanges,
    lineId,
  ]);

  return (
    <SettingsGrid<TCapAlertRow>
      label={M.title}
      emptyText={p.emptyText}
      isError={p.isError}
      loading={p.isLoading}
      toolbar={p.toolbar}
      columns={columns}
      rows={p.rows}
      // requirements.md settings §9: station then signal
      initialState={{
        sorting: {
          sortModel: [
            { field: "station", sort: "asc" },
            { field: "signal", sort: "asc" },
          ],
        },
      }}
    />
  );
}
