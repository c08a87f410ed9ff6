import {
  CAPABILITY_MESSAGES,
  DEFAULT_MODEL,
  SPC_LIMITS_MESSAGES as M,
  SETTINGS_KIT_MESSAGES,
  SPC_LIMIT_KEYS,
  SPC_LIMIT_LABELS,
  type TSpcLimitKey,
} from "@linewatch/contracts";
import AddIcon from "@mui/icons-material/Add";
import DeleteIcon from "@mui/icons-material/DeleteOutlineOutlined";
import ShowChartIcon from "@mui/icons-material/ShowChart";
import { alpha, IconButton, Tooltip, Typography } from "@mui/material";
import { useMemo } from "react";
import { expandColumn } from "../../../../shared/ui/settings/ExpandToggle";
import { type FlatRow, isChildRow, isParentRow } from "../../../../shared/ui/settings/expandable-rows";
import { SettingsGrid } from "../../../../shared/ui/settings/SettingsGrid";
import type { SettingsColumn } from "../../../../shared/ui/settings/settings-grid";
import type { ExpandableRows } from "../../../../shared/ui/settings/useExpandableRows";
import { UNSAVED_ROW_CLASS } from "../../../../shared/ui/settings/useInlineRowEdit";
import type { TModelRow, TSignalRow } from "../spc-limits.form";
import { LimitCell } from "./LimitCell";

type Row = FlatRow<TSignalRow, TModelRow>;

export type LimitsGridProps = {
  tree: ExpandableRows<TSignalRow, TModelRow>;
  emptyText: string;
  isError: boolean;
  isLoading: boolean;
  /** Signals with unsaved edits. */
  unsavedIds: ReadonlySet<string>;
  /** The page holds unsaved edits. */
  isDirty: boolean;
  errorsOf: (signalId: string, m: TModelRow) => Partial<Record<TSpcLimitKey, string>>;
  lockedOf: (signalId: string) => TSpcLimitKey[];
  signalNames: string[];
  toolbar: React.ReactNode;
  onCell: (signalId: string, model: string, key: TSpcLimitKey, text: string) => void;
  onAddModel: (signalId: string) => void;
  onRemoveModel: (signalId: string, model: string) => void;
  /** Opens the signal's capability view (issue #14). */
  onCapability: (signalId: string) => void;
};

/** The Cap Limits tree grid (requirements.md settings §2.5): signals that expand into one row per model. */
export function LimitsGrid(p: LimitsGridProps) {
  const { tree, errorsOf, lockedOf, onCell, signalNames, onAddModel, onRemoveModel, onCapability, isDirty } =
    p;
  const columns = useMemo<SettingsColumn<Row>[]>(() => {
    const parentText = (field: "station" | "signal") => (row: Row) => (isParentRow(row) ? row[field] : "");
    const limitColumn = (key: TSpcLimitKey): SettingsColumn<Row> => ({
      field: key,
      headerName: SPC_LIMIT_LABELS[key],
      flex: 1,
      // Narrow enough that the row's actions stay in view from 1280 px (issue 32 §1), wide enough
      // for a locked cell's 'Single Sided'.
      minWidth: 105,
      sortable: false,
      renderCell: ({ row }) => {
        if (isParentRow(row)) {
          // The signal's row shows its '*' model's limits (what every model without its own row
          // takes), read-only: they are edited in the model row 'See models' opens.
          const all = row.models.find((model) => model.model === DEFAULT_MODEL);
          return all?.[key] ? (
            <Typography variant="body2" color="text.secondary" noWrap title={M.defaultModelLimit}>
              {all[key]}
            </Typography>
          ) : null;
        }
        const m = row;
        if (!isChildRow(m)) return null;
        const signalId = m.__row.parentId;
        return (
          <LimitCell
            label={`${SPC_LIMIT_LABELS[key]} ${m.model}`}
            value={m[key]}
            error={errorsOf(signalId, m)[key]}
            isLocked={lockedOf(signalId).includes(key)}
            isFirstEdit={!isDirty}
            signalNames={signalNames}
            onChange={(text) => onCell(signalId, m.model, key, text)}
          />
        );
      },
    });
    return [
      expandColumn<TSignalRow, TModelRow>({
        tree,
        label: (_row, isExpanded) =>
          isExpanded ? SETTINGS_KIT_MESSAGES.hideModels : SETTINGS_KIT_MESSAGES.seeModels,
      }),
      {
        field: "station",
        headerName: "Station",
        flex: 1,
        minWidth: 100,
        valueGetter: (_v, row) => parentText("station")(row),
      },
      {
        field: "signal",
        headerName: "Signal",
        flex: 1,
        minWidth: 120,
        valueGetter: (_v, row) => parentText("signal")(row),
      },
      {
        field: "model",
        headerName: "Model",
        width: 90,
        sortable: false,
        valueGetter: (_v, row) => (isChildRow(row) ? row.model : ""),
      },
      ...SPC_LIMIT_KEYS.map(limitColumn),
      {
        field: "__actions",
        headerName: "",
        // Icon buttons with tooltips, so that the limits keep room for their text ('Single Sided').
        width: 100,
        sortable: false,
        disableColumnMenu: true,
        renderCell: ({ row }) => {
          if (isParentRow(row)) {
            const signal = row.signal;
            return (
              <>
                <Tooltip title={M.addModel}>
                  <IconButton size="small" aria-label={M.addModel} onClick={() => onAddModel(row.id)}>
                    <AddIcon fontSize="small" />
                  </IconButton>
                </Tooltip>
                <Tooltip title={CAPABILITY_MESSAGES.open}>
                  <IconButton
                    size="small"
                    aria-label={CAPABILITY_MESSAGES.openFor(signal)}
                    onClick={() => onCapability(row.id)}
                  >
                    <ShowChartIcon fontSize="small" />
                  </IconButton>
                </Tooltip>
              </>
            );
          }
          const m = row;
          if (!isChildRow(m)) return null;
          const signalId = m.__row.parentId;
          if (m.model === "*") return null;
          return (
            <Tooltip title={M.removeModel}>
              <IconButton
                aria-label={`${M.removeModel} ${m.model}`}
                onClick={() => onRemoveModel(signalId, m.model)}
              >
                <DeleteIcon />
              </IconButton>
            </Tooltip>
          );
        },
      },
    ];
  }, [tree, errorsOf, lockedOf, onCell, signalNames, onAddModel, onRemoveModel, onCapability, isDirty]);

  return (
    <SettingsGrid<Row>
      label={M.title}
      emptyText={p.emptyText}
      isError={p.isError}
      loading={p.isLoading}
      toolbar={p.toolbar}
      columns={columns}
      {...tree.gridProps}
      getRowClassName={({ row }) => {
        const id = row.__row.kind === "parent" ? row.id : row.__row.parentId;
        return p.unsavedIds.has(id) ? UNSAVED_ROW_CLASS : "";
      }}
      sx={{
        [`& .${UNSAVED_ROW_CLASS}`]: {
          bgcolor: (t) => alpha(t.palette.warning.main, 0.08),
          boxShadow: (t) => `inset 4px 0 0 ${t.palette.warning.main}`,
        },
      }}
    />
  );
}
