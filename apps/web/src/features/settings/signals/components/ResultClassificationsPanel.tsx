import {
  SIGNAL_MANAGEMENT_TEXT as TEXT,
  type TResultClassifications,
  type TResultClassificationsPatchBody,
  type TSignal,
} from "@linewatch/contracts";
import AddIcon from "@mui/icons-material/Add";
import { Box, Button, Divider, Drawer, List, ListItem, ListItemText, Stack, Typography } from "@mui/material";
import { type KeyboardEvent, type ReactNode, useEffect, useMemo, useRef, useState } from "react";
import { ConfirmDialog } from "../../../../shared/ui/ConfirmDialog";
import { QueryState } from "../../../../shared/ui/QueryState";
import { BusyOverlay } from "../../../../shared/ui/settings/BusyOverlay";
import { signalLabel } from "../../../signals/signal-tree";
import {
  addRow,
  commonRows,
  deleteRow,
  errorOf,
  initClassState,
  isDirty,
  makeCommon,
  rowErrors,
  signalsWithoutUnique,
  type TClassState,
  toPatchBody,
  uniqueRows,
  updateRow,
} from "../classifications";
import { ClassificationTable } from "./ClassificationTable";

const DRAWER_WIDTH = 750; // px, as the other Settings drawers (requirements.md settings §9)

/**
 * 'Edit Result Classifications' (requirements.md settings §2.8, §4 "Result classification panel"): closed,
 * open, dirty. Save Changes waits for a valid change; leaving with changes asks first.
 */
export function ResultClassificationsPanel(p: {
  open: boolean;
  signals: TSignal[];
  data: Record<string, TResultClassifications> | undefined;
  isLoading: boolean;
  error: unknown;
  onRetry: () => void;
  isSaving: boolean;
  onSave: (body: TResultClassificationsPatchBody) => Promise<unknown>;
  onClose: () => void;
}) {
  // Escape goes through the editor's Cancel (which asks when there are changes).
  const cancelRef = useRef<(() => void) | null>(null);
  const paperRef = useRef<HTMLDivElement | null>(null);
  // Not modal: the tree beside it stays in reach, so hovering a signal shows why the selection is
  // locked while the panel is open (settings §2.8) instead of a backdrop swallowing the pointer.
  // Focus moves into the panel as it opens, as a modal drawer's would.
  useEffect(() => {
    if (p.open) paperRef.current?.focus();
  }, [p.open]);
  return (
    <Drawer
      anchor="right"
      variant="persistent"
      open={p.open}
      slotProps={{
        paper: {
          ref: paperRef,
          tabIndex: -1,
          role: "dialog",
          "aria-modal": false,
          "aria-label": TEXT.editResultClassifications,
          onKeyDown: (e: KeyboardEvent) => {
            if (e.key !== "Escape") return;
            e.stopPropagation();
            if (cancelRef.current) cancelRef.current();
            else p.onClose();
          },
          sx: { width: DRAWER_WIDTH, maxWidth: "100vw", zIndex: (t) => t.zIndex.drawer, boxShadow: 16 },
        },
      }}
    >
      {/* A persistent drawer keeps its children: the editor is dropped as the panel closes, so
          it opens fresh each time, as it did inside a modal drawer. */}
      {p.open && (
        <Box
          sx={{ p: 2, position: "relative", minHeight: "100%" }}
          role="region"
          aria-label={TEXT.editResultClassifications}
        >
          <Typography variant="h6" component="h2" sx={{ mb: 1 }}>
            {TEXT.editResultClassifications}
          </Typography>
          <QueryState isLoading={p.isLoading} error={p.error} onRetry={p.onRetry}>
            {p.data ? (
              <Editor
                key={p.signals.map((s) => s.id).join(",")}
                signals={p.signals}
                data={p.data}
                isSaving={p.isSaving}
                onSave={p.onSave}
                onClose={p.onClose}
                cancelRef={cancelRef}
              />
            ) : null}
          </QueryState>
          <BusyOverlay open={p.isSaving} />
        </Box>
      )}
    </Drawer>
  );
}

function Editor(p: {
  signals: TSignal[];
  data: Record<string, TResultClassifications>;
  isSaving: boolean;
  onSave: (body: TResultClassificationsPatchBody) => Promise<unknown>;
  onClose: () => void;
  cancelRef: { current: (() => void) | null };
}) {
  const ids = p.signals.map((s) => s.id);
  // The saved state when the panel opened (the panel is keyed by its signals).
  const [initial] = useState(() => initClassState(ids, p.data));
  const [state, setState] = useState<TClassState>(initial);
  const [askDiscard, setAskDiscard] = useState(false);
  const newId = useRef(0);
  const errors = useMemo(() => rowErrors(state), [state]);
  const dirty = isDirty(state, initial);
  const canSave = dirty && errors.size === 0 && !p.isSaving;
  const single = p.signals.length === 1;
  const nameOf = (id: string) => {
    const s = p.signals.find((x) => x.id === id);
    return s ? signalLabel(s) : id;
  };
  const add = (signalId?: string) => setState((s) => addRow(s, `new:${++newId.current}`, signalId));
  const handleCancel = () => (dirty ? setAskDiscard(true) : p.onClose());
  p.cancelRef.current = handleCancel;
  const handleSave = async () => {
    try {
      await p.onSave(toPatchBody(state));
    } catch {
      // The mutation showed its message; the panel stays open with the edits.
    }
  };

  return (
    <Stack spacing={2}>
      {single ? (
        <Section title={TEXT.classificationsFor(nameOf(ids[0] as string))} onAdd={() => add()}>
          <ClassificationTable
            label={TEXT.classificationsFor(nameOf(ids[0] as string))}
            rows={state.rows[ids[0] as string] ?? []}
            emptyText={TEXT.noClassifications}
            errorOf={(rowId) => errorOf(errors, state, rowId)}
            onChange={(rowId, patch) => setState((s) => updateRow(s, rowId, patch))}
            onDelete={(rowId) => setState((s) => deleteRow(s, rowId))}
          />
        </Section>
      ) : (
        <>
          <Section title={TEXT.commonClassifications} onAdd={() => add()}>
            <ClassificationTable
              label={TEXT.commonClassifications}
              rows={commonRows(state)}
              emptyText={TEXT.noCommonClassifications}
              errorOf={(rowId) => errorOf(errors, state, rowId)}
              onChange={(rowId, patch) => setState((s) => updateRow(s, rowId, patch))}
              onDelete={(rowId) => setState((s) => deleteRow(s, rowId))}
            />
          </Section>
          <Divider />
          <Typography variant="subtitle1">{TEXT.uniqueClassifications}</Typography>
          {ids.map((id) => (
            <Section key={id} title={nameOf(id)} onAdd={() => add(id)}>
              <ClassificationTable
                label={`${TEXT.uniqueClassifications} ${nameOf(id)}`}
                rows={uniqueRows(state, id)}
                emptyText={TEXT.noClassifications}
                errorOf={(rowId) => errorOf(errors, state, rowId, id)}
                onChange={(rowId, patch) => setState((s) => updateRow(s, rowId, patch, id))}
                onDelete={(rowId) => setState((s) => deleteRow(s, rowId, id))}
                onMakeCommon={(rowId) => setState((s) => makeCommon(s, rowId, id))}
              />
            </Section>
          ))}
          <Typography variant="subtitle2">{TEXT.withoutUnique}</Typography>
          <List dense aria-label={TEXT.withoutUnique}>
            {signalsWithoutUnique(state).map((id) => (
              <ListItem key={id}>
                <ListItemText primary={nameOf(id)} />
              </ListItem>
            ))}
          </List>
        </>
      )}
      <Stack direction="row" spacing={1} sx={{ justifyContent: "flex-end" }}>
        <Button onClick={handleCancel} disabled={p.isSaving}>
          {TEXT.cancel}
        </Button>
        <Button variant="contained" disabled={!canSave} onClick={() => void handleSave()}>
          {TEXT.saveChanges}
        </Button>
      </Stack>
      <ConfirmDialog
        open={askDiscard}
        title={TEXT.discardTitle}
        confirmLabel={TEXT.discardChanges}
        cancelLabel={TEXT.continueEditing}
        destructive
        onCancel={() => setAskDiscard(false)}
        onConfirm={() => {
          setAskDiscard(false);
          p.onClose();
        }}
      >
        {TEXT.discardText}
      </ConfirmDialog>
    </Stack>
  );
}

function Section(p: { title: string; onAdd: () => void; children: ReactNode }) {
  return (
    <Stack spacing={1} component="section" aria-label={p.title}>
      <Stack direction="row" sx={{ alignItems: "center", justifyContent: "space-between" }}>
        <Typography variant="subtitle1">{p.title}</Typography>
        <Button size="small" startIcon={<AddIcon />} onClick={p.onAdd}>
          {TEXT.addClassification}
        </Button>
      </Stack>
      {p.children}
    </Stack>
  );
}
