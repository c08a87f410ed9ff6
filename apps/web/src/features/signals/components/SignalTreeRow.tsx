import CheckBoxIcon from "@mui/icons-material/CheckBox";
import CheckBoxOutlineBlankIcon from "@mui/icons-material/CheckBoxOutlineBlank";
import ChevronRightIcon from "@mui/icons-material/ChevronRight";
import ExpandMoreIcon from "@mui/icons-material/ExpandMore";
import LabelOutlinedIcon from "@mui/icons-material/LabelOutlined";
import StationIcon from "@mui/icons-material/PrecisionManufacturingOutlined";
import RadioButtonCheckedIcon from "@mui/icons-material/RadioButtonChecked";
import RadioButtonUncheckedIcon from "@mui/icons-material/RadioButtonUnchecked";
import GroupIcon from "@mui/icons-material/WorkspacesOutlined";
import { Box, Typography } from "@mui/material";
import { type MouseEvent, memo, type ReactNode, useId } from "react";
import type { TSelectableVerdict, TSelectGesture } from "../selection";
import {
  SECTION_LABELS,
  SELECTED_ITEM_TEXT,
  SIGNAL_TREE_TEXT,
  signalLabel,
  type TTreeRow,
} from "../signal-tree";

export const ROW_HEIGHT = 36; // px, every row the same: the virtual list needs no measuring

export type SignalTreeRowProps = {
  row: TTreeRow;
  index: number;
  start: number;
  /** Undefined for rows that are not items one chooses (sections, stations, attributes …). */
  selected: boolean | undefined;
  selectable: boolean;
  /** What the tree's predicate says of this row's node (a string is the reason it cannot be chosen). */
  verdict: TSelectableVerdict;
  /** Signals show checkboxes when several may be chosen, radio buttons when one. */
  multiselectable: boolean;
  tabbable: boolean;
  onActivate: (row: TTreeRow, gesture: TSelectGesture) => void;
  onToggleOpen: (key: string) => void;
  onFocusRow: (key: string) => void;
  /** Slot after the row's text: chips (a status, a count), per row. */
  renderChips?: (row: TTreeRow) => ReactNode;
  /** Room kept at the row's right for its actions, which the tree lays over the row (px). */
  actionsWidth?: number;
};

export const rowLabel = (row: TTreeRow): string => {
  switch (row.kind) {
    case "section":
      return SECTION_LABELS[row.section];
    case "group":
      return row.group.signalGroupName;
    case "station":
      return row.station.name;
    case "member":
      return row.signal ? signalLabel(row.signal) : row.signalId;
    case "signal":
    case "attribute":
      return signalLabel(row.signal);
    case "empty":
      return row.text;
  }
};

function secondaryText(row: TTreeRow, verdict: TSelectableVerdict): string | null {
  switch (row.kind) {
    case "section":
    case "station":
      return String(row.count);
    case "group": {
      const n = SIGNAL_TREE_TEXT.signalCount(row.group.signalUuids.length);
      return typeof verdict === "string" ? `${n} · ${verdict}` : n;
    }
    case "member":
      return row.signal ? row.signal.stationName : SELECTED_ITEM_TEXT.notOnLine;
    case "signal":
      return row.signal.friendlyName?.trim() ? row.signal.name : null;
    case "attribute":
      return SIGNAL_TREE_TEXT.attributeHint;
    case "empty":
      return null;
  }
}

function SelectionIcon(p: { multiselectable: boolean; selected: boolean; selectable: boolean }) {
  const color = p.selectable ? (p.selected ? "primary" : "action") : "disabled";
  const Icon = !p.multiselectable
    ? p.selected
      ? RadioButtonCheckedIcon
      : RadioButtonUncheckedIcon
    : p.selected
      ? CheckBoxIcon
      : CheckBoxOutlineBlankIcon;
  return <Icon fontSize="small" color={color} aria-hidden />;
}

/** One row of the virtual tree; the tree handles keys, the row handles the pointer. */
export const SignalTreeRow = memo(function SignalTreeRow(p: SignalTreeRowProps) {
  const { row, selected, selectable } = p;
  const open = "open" in row ? row.open : undefined;
  const label = rowLabel(row);
  const secondary = secondaryText(row, p.verdict);
  const chips = p.renderChips?.(row) ?? null;
  const detailsId = useId();
  const hasDetails = !!secondary || chips !== null;
  // Why a row cannot be chosen, or what an attribute is: the tooltip of the whole row.
  const hint =
    row.kind === "attribute"
      ? SIGNAL_TREE_TEXT.attributeHint
      : typeof p.verdict === "string"
        ? p.verdict
        : undefined;
  const handleChevron = (e: MouseEvent) => {
    e.stopPropagation();
    p.onToggleOpen(row.key);
  };
  let leading: ReactNode = null;
  if (row.kind === "station") leading = <StationIcon fontSize="small" color="action" aria-hidden />;
  else if (row.kind === "attribute")
    leading = <LabelOutlinedIcon fontSize="small" color="disabled" aria-hidden />;
  if (row.kind === "group")
    leading = (
      <>
        {p.verdict === true || selected ? (
          <SelectionIcon multiselectable selected={!!selected} selectable={selectable} />
        ) : null}
        <GroupIcon fontSize="small" color="action" aria-hidden />
      </>
    );
  if (row.kind === "signal")
    leading = (
      <SelectionIcon multiselectable={p.multiselectable} selected={!!selected} selectable={selectable} />
    );

  // The row lays out a tree item (chevron, icons, label: all it shows is its name, which voice
  // control can say) and, beside it, its details (a count, the signal's name, chips), which are
  // the item's description. The row takes the pointer; the item takes focus and keys.
  return (
    <Box
      role="none"
      onClick={(e) => p.onActivate(row, { shiftKey: e.shiftKey, ctrlKey: e.ctrlKey, metaKey: e.metaKey })}
      title={hint}
      sx={{
        position: "absolute",
        top: 0,
        left: 0,
        width: "100%",
        height: ROW_HEIGHT,
        transform: `translateY(${p.start}px)`,
        display: "flex",
        alignItems: "center",
        gap: 1,
        pl: 1 + (row.level - 1) * 2.5,
        pr: p.actionsWidth ? `${p.actionsWidth}px` : 1,
        cursor:
          row.kind === "empty" || row.kind === "member" || row.kind === "attribute" ? "default" : "pointer",
        bgcolor: selected ? "action.selected" : undefined,
        "&:hover": { bgcolor: row.kind === "empty" ? undefined : "action.hover" },
        "&:has(> [role=treeitem]:focus-visible)": {
          outline: "2px solid",
          outlineColor: "primary.main",
          outlineOffset: -2,
        },
      }}
    >
      <Box
        role="treeitem"
        data-index={p.index}
        title={hint}
        aria-level={row.level}
        aria-label={label}
        aria-describedby={hasDetails ? detailsId : undefined}
        aria-expanded={open}
        aria-selected={selected}
        aria-disabled={(row.kind === "signal" || row.kind === "group") && !selectable ? true : undefined}
        tabIndex={p.tabbable ? 0 : -1}
        onFocus={() => p.onFocusRow(row.key)}
        sx={{ display: "flex", alignItems: "center", gap: 1, minWidth: 0, height: "100%", outline: "none" }}
      >
        {open !== undefined ? (
          <Box component="span" onClick={handleChevron} sx={{ display: "flex" }} aria-hidden>
            {open ? <ExpandMoreIcon fontSize="small" /> : <ChevronRightIcon fontSize="small" />}
          </Box>
        ) : null}
        {leading}
        <Typography
          variant="body2"
          noWrap
          sx={{
            fontWeight: row.kind === "section" ? 600 : undefined,
            fontStyle: row.kind === "empty" ? "italic" : undefined,
            color: row.kind === "empty" || row.kind === "attribute" ? "text.secondary" : undefined,
            minWidth: 0,
          }}
        >
          {label}
        </Typography>
      </Box>
      {hasDetails ? (
        <Box
          component="span"
          id={detailsId}
          aria-hidden
          sx={{ display: "flex", alignItems: "center", gap: 1, minWidth: 0, flexShrink: 1 }}
        >
          {secondary ? (
            <Typography variant="caption" color="text.secondary" noWrap sx={{ minWidth: 0, flexShrink: 1 }}>
              {secondary}
            </Typography>
          ) : null}
          {chips}
        </Box>
      ) : null}
    </Box>
  );
});
