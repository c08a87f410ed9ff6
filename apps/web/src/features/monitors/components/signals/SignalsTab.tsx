import { MONITOR_FORM_LAYOUT, type TMonitorFormValues } from "@linewatch/contracts";
import SearchIcon from "@mui/icons-material/Search";
import { Box, InputAdornment, MenuItem, TextField, Typography } from "@mui/material";
import { type ReactNode, useCallback, useDeferredValue, useMemo, useRef, useState } from "react";
import { useFormContext, useWatch } from "react-hook-form";
import { usePlantLine } from "../../../../shared/data/plants/plant-line";
import { QueryState } from "../../../../shared/ui/QueryState";
import { useLineSignals, useSignalGroups } from "../../../signals/api/queries";
import { SignalTree, type SignalTreeHandle } from "../../../signals/components/SignalTree";
import {
  signalOrder,
  singleStrategy,
  type TSelectableNode,
  type TSelectablePredicate,
  type TSelectGesture,
  toggleStrategy,
  withShiftRange,
} from "../../../signals/selection";
import {
  buildSignalTreeIndex,
  canSelectGroups,
  flattenSignalTree,
  isEmptyMatch,
  SIGNAL_TREE_TEXT,
  searchSignalTree,
  selectedItems,
  type TSelectedItem,
  type TSignalSelection,
} from "../../../signals/signal-tree";
import { useFieldError, useMonitorFormCtx } from "../MonitorFormContext";
import { SelectedItems } from "./SelectedItems";
import { SIGNALS_TAB_TEXT } from "./signals-text";

const NOTHING: ReadonlySet<string> = new Set();
/** MVD: a click adds or removes, Shift adds the range from the last signal chosen. SVD: one signal. */
const MVD_SELECTION = withShiftRange(toggleStrategy);
const flip = (set: ReadonlySet<string>, key: string) => {
  const next = new Set(set);
  if (!next.delete(key)) next.add(key);
  return next;
};

/**
 * The Signals tab of the MVD / SVD monitor form (requirements.md monitor-forms §2 "Signals tab", §5 "Signal
 * selection"): the line, its stations' active measurements and part attributes and its signal
 * groups as one searchable virtual tree, and the Selected Items preview.
 */
export function SignalsTab() {
  const ctx = useMonitorFormCtx();
  const { control, getValues, setValue } = useFormContext<TMonitorFormValues>();
  const [lineUuid, type, signalUuids, groupUuids] = useWatch({
    control,
    name: ["line_uuid", "monitor_type", "signal_uuids", "signal_group_uuids"],
  });
  const { lines } = usePlantLine();
  const lineId = lineUuid || null;
  const signalsQ = useLineSignals(lineId);
  const groupsQ = useSignalGroups({
    customerUuid: ctx.customerId,
    plantUuid: ctx.plant.id,
    lineUuid: lineId,
  });
  const error = useFieldError("signal_uuids");

  // Search keys are computed once per load of the line's signals and groups.
  const index = useMemo(
    () => buildSignalTreeIndex(signalsQ.data ?? [], groupsQ.data ?? []),
    [signalsQ.data, groupsQ.data],
  );
  const [query, setQuery] = useState("");
  // Typing stays immediate; the tree follows as soon as React has a moment (well under 100 ms).
  const deferredQuery = useDeferredValue(query);
  const match = useMemo(() => searchSignalTree(index, deferredQuery), [index, deferredQuery]);

  // Rows opened or closed by hand: kept while browsing; a new search starts from its defaults.
  const [browseToggled, setBrowseToggled] = useState<ReadonlySet<string>>(NOTHING);
  const [searchToggled, setSearchToggled] = useState({ query: "", keys: NOTHING });
  const toggled =
    match.query === "" ? browseToggled : searchToggled.query === match.query ? searchToggled.keys : NOTHING;
  const rows = useMemo(() => flattenSignalTree(index, match, toggled), [index, match, toggled]);
  const handleToggleOpen = useCallback(
    (key: string) => {
      if (match.query === "") setBrowseToggled((s) => flip(s, key));
      else
        setSearchToggled((s) => ({
          query: match.query,
          keys: flip(s.query === match.query ? s.keys : NOTHING, key),
        }));
    },
    [match.query],
  );

  const selectedSignals = useMemo(() => new Set(signalUuids), [signalUuids]);
  const selectedGroups = useMemo(() => new Set(groupUuids), [groupUuids]);
  const items = useMemo(
    () => selectedItems(index, { signal_uuids: signalUuids, signal_group_uuids: groupUuids }),
    [index, signalUuids, groupUuids],
  );

  const applySelection = useCallback(
    (change: (sel: TSignalSelection) => TSignalSelection) => {
      const sel = {
        signal_uuids: getValues("signal_uuids"),
        signal_group_uuids: getValues("signal_group_uuids"),
      };
      const next = change(sel);
      if (next.signal_uuids !== sel.signal_uuids)
        setValue("signal_uuids", next.signal_uuids, { shouldDirty: true });
      if (next.signal_group_uuids !== sel.signal_group_uuids)
        setValue("signal_group_uuids", next.signal_group_uuids, { shouldDirty: true });
    },
    [getValues, setValue],
  );
  // Groups are for MVD monitors only: an SVD monitor's tree says why on the group's row.
  const isSelectable = useCallback<TSelectablePredicate>(
    (node) => (node.kind === "group" && !canSelectGroups(type) ? SIGNAL_TREE_TEXT.groupsMvdOnly : true),
    [type],
  );
  const order = useMemo(() => signalOrder(index), [index]);
  const anchor = useRef<string | null>(null);
  const handleSelect = useCallback(
    (node: TSelectableNode, gesture: TSelectGesture) => {
      const strategy = canSelectGroups(getValues("monitor_type")) ? MVD_SELECTION : singleStrategy;
      applySelection((sel) => strategy(sel, node, { gesture, anchor: anchor.current, order }));
      if (node.kind === "signal" && !gesture.shiftKey) anchor.current = node.id;
    },
    [applySelection, getValues, order],
  );
  const handleRemove = (item: TSelectedItem) =>
    applySelection((sel) =>
      item.kind === "signal"
        ? { ...sel, signal_uuids: sel.signal_uuids.filter((x) => x !== item.id) }
        : { ...sel, signal_group_uuids: sel.signal_group_uuids.filter((x) => x !== item.id) },
    );

  // requirements.md monitor-forms §4: a line change clears part numbers and part attributes; the chosen signals and groups
  // belong to the old line, so they go too.
  const handleLineChange = (id: string) => {
    if (id === getValues("line_uuid")) return;
    const dirty = { shouldDirty: true };
    setValue("line_uuid", id, dirty);
    setValue("signal_uuids", [], dirty);
    setValue("signal_group_uuids", [], dirty);
    setValue("part_numbers", [], dirty);
    setValue("part_attributes", [], dirty);
    setQuery("");
    setBrowseToggled(NOTHING);
  };

  const treeRef = useRef<SignalTreeHandle>(null);
  const isLoading = signalsQ.isLoading || groupsQ.isLoading;
  const loadError = signalsQ.error ?? groupsQ.error;
  const handleRetry = () => {
    if (signalsQ.error) void signalsQ.refetch();
    if (groupsQ.error) void groupsQ.refetch();
  };

  let body: ReactNode;
  if (!lineId)
    body = (
      <Typography variant="body2" color="text.secondary" sx={{ p: 2 }}>
        {SIGNALS_TAB_TEXT.selectLine}
      </Typography>
    );
  else if (match.query !== "" && isEmptyMatch(match))
    body = (
      <Typography variant="body2" color="text.secondary" sx={{ p: 2 }} role="status">
        {SIGNALS_TAB_TEXT.noResults}
      </Typography>
    );
  else
    body = (
      <SignalTree
        rows={rows}
        multiselectable={type === "mvd"}
        readOnly={ctx.readOnly}
        selectedSignals={selectedSignals}
        selectedGroups={selectedGroups}
        isSelectable={isSelectable}
        onSelect={handleSelect}
        onToggleOpen={handleToggleOpen}
        handleRef={treeRef}
      />
    );

  return (
    <Box
      data-testid="signal-picker"
      sx={{
        display: "grid",
        gridTemplateColumns: { xs: "minmax(0, 1fr)", md: "minmax(0, 1fr) 300px" },
        gap: 2,
        minHeight: MONITOR_FORM_LAYOUT.signalPickerMinHeight,
      }}
    >
      <Box sx={{ display: "flex", flexDirection: "column", gap: 1.5, minWidth: 0 }}>
        <TextField
          select
          size="small"
          label={SIGNALS_TAB_TEXT.lineLabel}
          value={lines.some((l) => l.id === lineUuid) ? lineUuid : ""}
          onChange={(e) => handleLineChange(e.target.value)}
          disabled={ctx.readOnly}
        >
          {lines.map((l) => (
            <MenuItem key={l.id} value={l.id}>
              {l.friendlyName || l.name}
            </MenuItem>
          ))}
        </TextField>
        <TextField
          size="small"
          type="search"
          value={query}
          onChange={(e) => setQuery(e.target.value)}
          onKeyDown={(e) => {
            if (e.key !== "ArrowDown") return;
            e.preventDefault();
            treeRef.current?.focusActiveRow();
          }}
          placeholder={SIGNALS_TAB_TEXT.searchPlaceholder}
          disabled={!lineId}
          slotProps={{
            htmlInput: { "aria-label": SIGNALS_TAB_TEXT.searchLabel },
            input: {
              startAdornment: (
                <InputAdornment position="start">
                  <SearchIcon fontSize="small" />
                </InputAdornment>
              ),
            },
          }}
        />
        {/* The tree fills what the picker's height leaves; placed absolutely so the virtual list's
            full height never counts towards the picker's. */}
        <Box
          sx={{
            flex: "1 1 0",
            minHeight: 0,
            position: "relative",
            border: 1,
            borderColor: "divider",
            borderRadius: 1,
            opacity: query !== deferredQuery ? 0.7 : 1,
          }}
        >
          <Box sx={{ position: "absolute", inset: 0, display: "flex", flexDirection: "column" }}>
            <QueryState
              isLoading={!!lineId && isLoading}
              error={lineId ? loadError : null}
              onRetry={handleRetry}
              errorTitle={SIGNALS_TAB_TEXT.loadError}
            >
              {body}
            </QueryState>
          </Box>
        </Box>
      </Box>
      <SelectedItems
        items={items}
        readOnly={ctx.readOnly}
        hint={type === "mvd" ? SIGNALS_TAB_TEXT.mvdHint : SIGNALS_TAB_TEXT.svdHint}
        error={error}
        onRemove={handleRemove}
      />
    </Box>
  );
}
