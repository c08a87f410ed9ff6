import {
  DRAWER,
  LINE_EDITOR_DRAWER_WIDTH,
  LINE_MANAGEMENT_MESSAGES,
  LINE_MANAGEMENT_TEXTS,
  LINE_MESSAGES,
  lineLabel,
  type TLine,
} from "@linewatch/contracts";
import CloseIcon from "@mui/icons-material/Close";
import {
  Alert,
  Autocomplete,
  Box,
  Button,
  CircularProgress,
  Dialog,
  DialogActions,
  DialogContent,
  DialogTitle,
  Divider,
  Drawer,
  FormControlLabel,
  IconButton,
  Stack,
  Switch,
  Table,
  TableBody,
  TableCell,
  TableContainer,
  TableHead,
  TableRow,
  TextField,
  Typography,
} from "@mui/material";
import { useEffect, useId, useState } from "react";
import { ApiError } from "../../../../shared/api/client";
import { useLineById } from "../../../../shared/data/plants/queries";
import { localizeText, useTexts } from "../../../../shared/i18n/language";
import { ConfirmDialog } from "../../../../shared/ui/ConfirmDialog";
import { useDiscardGuard } from "../../../../shared/ui/settings/useDiscardGuard";
import { HistoryButton } from "../../../audit-log/components/HistoryButton";
import { useSetAlertViewingWindow, useUpdateLine } from "../api/mutations";
import { useFeederLineInfo, useLineExclusionOptions } from "../api/queries";
import { feederTableRows } from "../feeder-lines";
import {
  canSaveEditor,
  editorChanges,
  editorValuesOf,
  type LineEditorFlags,
  type LineEditorValues,
  validateEditor,
} from "../line-editor.form";
import { FeederLinesDrawer } from "./FeederLinesDrawer";

export type LineEditorDrawerProps = {
  open: boolean;
  lineId: string | undefined;
  flags: LineEditorFlags;
  onClose: () => void;
  onExited: () => void;
  /** Whether the form holds changes: the page guards leaving the section with them (useLeaveGuard). */
  onDirtyChange?: (dirty: boolean) => void;
};

/** The Configure Line drawer (750 px, requirements.md settings §2.9), loading the line it edits (GET /api/lines/{lineId}). */
export function LineEditorDrawer(p: LineEditorDrawerProps) {
  const T = useTexts(LINE_MANAGEMENT_TEXTS);
  const titleId = useId();
  const lineQ = useLineById(p.lineId, p.open);
  // The form reports whether it holds changes, so closing the drawer can ask first.
  const [dirty, setDirty] = useState(false);
  const discard = useDiscardGuard(dirty);
  // The form unmounts with the drawer without reporting clean: a closed drawer, or another line
  // opened, holds no changes until its form says so.
  useEffect(() => {
    if (!p.open || p.lineId) setDirty(false);
  }, [p.open, p.lineId]);
  const { onDirtyChange } = p;
  useEffect(() => onDirtyChange?.(dirty), [onDirtyChange, dirty]);
  const close = () => discard.guard(p.onClose);
  const notFound = lineQ.error instanceof ApiError && lineQ.error.status === 404;
  return (
    <Drawer
      anchor="right"
      open={p.open}
      onClose={(_, reason) => reason !== "backdropClick" && close()}
      transitionDuration={{ enter: DRAWER.enterMs, exit: DRAWER.exitMs }}
      slotProps={{
        paper: {
          role: "dialog",
          "aria-labelledby": titleId,
          sx: { width: LINE_EDITOR_DRAWER_WIDTH, maxWidth: "100vw" },
        },
        transition: { onExited: p.onExited },
      }}
    >
      <Stack direction="row" sx={{ px: 2, py: 1.5, alignItems: "center" }}>
        <Typography id={titleId} variant="h6" component="h2" sx={{ flexGrow: 1 }}>
          {T.configureLine}
        </Typography>
        <HistoryButton
          resource="line"
          items={lineQ.data ? [{ id: lineQ.data.id, name: lineQ.data.friendlyName || lineQ.data.name }] : []}
        />
        <IconButton aria-label={T.close} onClick={close}>
          <CloseIcon />
        </IconButton>
      </Stack>
      <Divider />
      <Box sx={{ flexGrow: 1, overflow: "auto", p: 2 }}>
        {lineQ.isLoading && <CircularProgress aria-label="Loading" />}
        {(notFound || (lineQ.error && !notFound)) && (
          <Alert severity="error">{notFound ? LINE_MESSAGES.notFound : (lineQ.error as Error).message}</Alert>
        )}
        {lineQ.data && (
          <LineEditorForm
            key={lineQ.data.id}
            line={lineQ.data}
            flags={p.flags}
            onDirtyChange={setDirty}
            onSaved={p.onClose}
          />
        )}
      </Box>
      {discard.dialog}
    </Drawer>
  );
}

function LineEditorForm(p: {
  line: TLine;
  flags: LineEditorFlags;
  onDirtyChange: (dirty: boolean) => void;
  onSaved: () => void;
}) {
  const T = useTexts(LINE_MANAGEMENT_TEXTS);
  const M = useTexts(LINE_MANAGEMENT_MESSAGES);
  const { line, flags } = p;
  const initial = editorValuesOf(line);
  const [values, setValues] = useState<LineEditorValues>(initial);
  const [feeders, setFeeders] = useState<string[]>(line.feederLineIds);
  const [touched, setTouched] = useState<Partial<Record<keyof LineEditorValues, boolean>>>({});
  const [feederOpen, setFeederOpen] = useState(false);
  const [failure, setFailure] = useState<string | null>(null);
  // Saving a line turned inactive stops every monitor on it: asked first, as the grid's switch asks.
  const [confirmingDeactivation, setConfirmingDeactivation] = useState(false);
  const feederInfo = useFeederLineInfo(line.id, flags.feederLineAssignment);
  const options = useLineExclusionOptions(line.id, flags.capExclusion);
  const updateLine = useUpdateLine();
  const setWindow = useSetAlertViewingWindow();
  const errors = validateEditor(values, flags);
  const changes = editorChanges(line, values, feeders, flags);
  const isDirty = Object.keys(changes.patch).length > 0 || changes.alertViewingWindowDays !== undefined;
  const canSave = canSaveEditor(line, values, feeders, flags);
  const saving = updateLine.isPending || setWindow.isPending;

  const { onDirtyChange } = p;
  useEffect(() => onDirtyChange(isDirty), [onDirtyChange, isDirty]);

  const set = <K extends keyof LineEditorValues>(k: K, v: LineEditorValues[K]) => {
    setValues((s) => ({ ...s, [k]: v }));
    setTouched((s) => ({ ...s, [k]: true }));
  };
  // A field's error shows once it was touched, or once anything changed: a line stored without a
  // No Data Alert otherwise kept Save Changes disabled without a word.
  const errorOf = (k: "noDataAlert" | "alertDisplayed" | "friendlyName") =>
    touched[k] || isDirty ? errors[k] && localizeText(errors[k]) : undefined;

  const save = async () => {
    try {
      if (Object.keys(changes.patch).length > 0)
        await updateLine.mutateAsync({ lineId: line.id, patch: changes.patch });
      if (changes.alertViewingWindowDays !== undefined)
        await setWindow.mutateAsync({
          lineId: line.id,
          alertViewingWindowDays: changes.alertViewingWindowDays,
        });
      onDirtyChange(false);
      p.onSaved();
    } catch (err) {
      setFailure(err instanceof ApiError && err.status === 409 ? M.circularDependency : M.saveFailedText);
    }
  };

  const rows = feederTableRows(feederInfo.data, feeders);

  return (
    <Stack spacing={3}>
      <Box>
        <Typography variant="caption" color="text.secondary">
          {T.lineName}
        </Typography>
        <Typography>{line.name}</Typography>
      </Box>
      {flags.partMarriage && (
        <>
          <FormControlLabel
            control={<Switch checked={values.active} onChange={(e) => set("active", e.target.checked)} />}
            label={T.active}
          />
          <TextField
            label={T.noDataAlert}
            required
            value={values.noDataAlert}
            onChange={(e) => set("noDataAlert", e.target.value)}
            error={Boolean(errorOf("noDataAlert"))}
            helperText={errorOf("noDataAlert") ?? T.noDataAlertHelper}
            slotProps={{ htmlInput: { inputMode: "numeric" } }}
          />
          <TextField
            label={T.alertDisplayed}
            required
            value={values.alertDisplayed}
            onChange={(e) => set("alertDisplayed", e.target.value)}
            error={Boolean(errorOf("alertDisplayed"))}
            helperText={errorOf("alertDisplayed")}
            slotProps={{ htmlInput: { inputMode: "numeric" } }}
          />
        </>
      )}
      <TextField
        label={T.friendlyName}
        value={values.friendlyName}
        onChange={(e) => set("friendlyName", e.target.value)}
        error={Boolean(errorOf("friendlyName"))}
        helperText={errorOf("friendlyName")}
      />
      {flags.feederLineAssignment && (
        <Box>
          <Stack direction="row" sx={{ alignItems: "center", mb: 1 }}>
            <Typography variant="subtitle1" component="h3" sx={{ flexGrow: 1 }}>
              {T.feederLines}
            </Typography>
            <Button
              variant="outlined"
              size="small"
              disabled={!feederInfo.data}
              onClick={() => setFeederOpen(true)}
            >
              {T.configure}
            </Button>
          </Stack>
          <TableContainer sx={{ maxHeight: "45vh" }}>
            <Table size="small" stickyHeader aria-label={T.feederLines}>
              <TableHead>
                <TableRow>
                  <TableCell>{T.plant}</TableCell>
                  <TableCell>{T.line}</TableCell>
                </TableRow>
              </TableHead>
              <TableBody>
                {rows.length === 0 ? (
                  <TableRow>
                    <TableCell colSpan={2}>{feederInfo.isLoading ? "…" : T.noFeederLines}</TableCell>
                  </TableRow>
                ) : (
                  rows.map((r) => (
                    <TableRow key={r.id}>
                      <TableCell>{r.plant}</TableCell>
                      <TableCell>{r.line}</TableCell>
                    </TableRow>
                  ))
                )}
              </TableBody>
            </Table>
          </TableContainer>
          {feederInfo.data && (
            <FeederLinesDrawer
              open={feederOpen}
              lineId={line.id}
              info={feederInfo.data}
              selected={feeders}
              onCancel={() => setFeederOpen(false)}
              onSave={(ids) => {
                setFeeders(ids);
                setFeederOpen(false);
              }}
            />
          )}
        </Box>
      )}
      {flags.capExclusion && (
        <>
          <Autocomplete
            multiple
            freeSolo
            options={options.data?.partIds ?? []}
            value={values.excludedPartIds}
            onChange={(_, v) => set("excludedPartIds", v.map(String))}
            renderInput={(params) => <TextField {...params} label={T.challengeParts} />}
          />
          <Autocomplete
            multiple
            options={options.data?.modelNumbers ?? []}
            value={values.excludedModelNumbers}
            onChange={(_, v) => set("excludedModelNumbers", v)}
            renderInput={(params) => (
              <TextField
                {...params}
                label={T.challengeModelNumbers}
                helperText={T.challengeModelNumbersHelper}
              />
            )}
          />
        </>
      )}
      <Stack direction="row" spacing={1} sx={{ justifyContent: "flex-end" }}>
        <Button
          disabled={!isDirty || saving}
          onClick={() => {
            setValues(initial);
            setFeeders(line.feederLineIds);
            setTouched({});
          }}
        >
          {T.discardChanges}
        </Button>
        <Button
          variant="contained"
          disabled={!canSave || saving}
          onClick={() => (changes.patch.active === false ? setConfirmingDeactivation(true) : void save())}
          startIcon={saving ? <CircularProgress size={16} color="inherit" /> : undefined}
        >
          {T.saveChanges}
        </Button>
      </Stack>
      <ConfirmDialog
        open={confirmingDeactivation}
        title={T.deactivateTitle}
        confirmLabel={T.save}
        cancelLabel={T.cancel}
        destructive
        onConfirm={() => {
          setConfirmingDeactivation(false);
          void save();
        }}
        onCancel={() => setConfirmingDeactivation(false)}
      >
        <Typography gutterBottom>{T.deactivateText(lineLabel(line))}</Typography>
        <Typography color="text.secondary">{T.deactivateDetail}</Typography>
      </ConfirmDialog>
      <Dialog open={failure != null} onClose={() => setFailure(null)} aria-labelledby="line-save-failed">
        <DialogTitle id="line-save-failed">{M.saveFailedTitle}</DialogTitle>
        <DialogContent>{failure}</DialogContent>
        <DialogActions>
          <Button autoFocus onClick={() => setFailure(null)}>
            {T.ok}
          </Button>
        </DialogActions>
      </Dialog>
    </Stack>
  );
}
