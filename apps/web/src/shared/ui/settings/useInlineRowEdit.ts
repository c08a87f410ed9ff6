import {
  type DataGridProps,
  type GridEventListener,
  GridRowEditStopReasons,
  type GridRowId,
  GridRowModes,
  type GridRowModesModel,
  type GridValidRowModel,
} from "@mui/x-data-grid";
import { useCallback, useMemo, useRef, useState } from "react";

/** A failed save's message and the field it belongs under. */
export type InlineFieldError = { field: string; message: string };

export type InlineRowEditOptions<R extends GridValidRowModel> = {
  /**
   * Saves the edited row (the grid's row editing hands it over with the typed values). Resolve to
   * the row as saved (or nothing: the edited row stands); reject to keep the row in edit with what
   * was typed. Pages that collect edits (`collect`) may leave it out.
   */
  onSave?: (row: R, previous: R) => Promise<R | undefined> | R | undefined;
  /** Where a rejected save's error is shown: under a field, or null when the caller shows it (a snackbar). */
  fieldErrorOf?: (error: unknown, row: R) => InlineFieldError | null;
  /**
   * The page collects several rows' edits before one Save Changes (spec settings §4 "SPC limits"):
   * a saved row's changed fields are kept in `unsaved` and the row is marked; nothing is sent
   * until the page sends it.
   */
  collect?: boolean;
  /** The row's edit was cancelled (Cancel or Escape); the grid has dropped what was typed. */
  onCancel?: (id: GridRowId) => void;
};

/** The grid props the hook drives (spread on the grid, or use InlineEditGrid). */
export type InlineEditGridProps<R extends GridValidRowModel> = Required<
  Pick<
    DataGridProps<R>,
    | "editMode"
    | "rowModesModel"
    | "onRowModesModelChange"
    | "onRowEditStart"
    | "onRowEditStop"
    | "processRowUpdate"
    | "onProcessRowUpdateError"
    | "getRowClassName"
  >
>;

export type InlineRowEdit<R extends GridValidRowModel> = {
  /** The row in edit (one at a time; while its save runs too), or null. */
  editingId: GridRowId | null;
  /** The row whose save is on its way, or null. */
  pendingId: GridRowId | null;
  isEditing: (id: GridRowId) => boolean;
  /** Opens a row for editing (closing another without keeping its edits), the focus in `field`. */
  start: (id: GridRowId, field?: string) => void;
  /** Ends the row's edit and saves it, unless a field is invalid (then the row stays open). */
  save: (id: GridRowId) => void;
  /** Ends the row's edit, dropping what was typed. */
  cancel: (id: GridRowId) => void;
  /** The last failed save's message under `field` of row `id`, until that field is changed. */
  serverError: (id: GridRowId, field: string) => string | undefined;
  clearServerError: (id: GridRowId, field: string) => void;
  /** The changed fields of rows saved in the grid but not yet sent (`collect`), by row id. */
  unsaved: ReadonlyMap<GridRowId, Partial<R>>;
  isUnsaved: (id: GridRowId) => boolean;
  /** Something waits for the page's Save Changes, or a row is open. */
  isDirty: boolean;
  /**
   * The page's rows with their unsaved changes applied (the same array when there are none);
   * changes only with `unsaved`, so `useMemo(() => edit.withUnsaved(rows), [edit.withUnsaved, rows])`
   * keeps the grid's rows stable.
   */
  withUnsaved: (rows: readonly R[], getRowId?: (row: R) => GridRowId) => R[];
  /** After Save Changes or Discard Changes: forgets every unsaved edit and closes the open row. */
  clearUnsaved: () => void;
  gridProps: InlineEditGridProps<R>;
};

/** Class of an unsaved row (InlineEditGrid marks it). */
export const UNSAVED_ROW_CLASS = "lw-row-unsaved";

/**
 * Editing grid rows in place on the MIT DataGrid's row editing (editMode "row", a controlled
 * rowModesModel, processRowUpdate): one row in edit at a time; Enter saves and Escape cancels
 * (the grid's keys), clicking elsewhere keeps the row open; a field's validation (the column's
 * preProcessEditCellProps, see inlineEditColumn) keeps the row open with the message under the
 * field; while the caller's save runs the row is pending; a rejected save keeps the row open with
 * what was typed and, through `fieldErrorOf`, the server's message under its field.
 */
export function useInlineRowEdit<R extends GridValidRowModel>(
  o: InlineRowEditOptions<R> = {},
): InlineRowEdit<R> {
  const [rowModesModel, setRowModesModel] = useState<GridRowModesModel>({});
  const [pendingId, setPendingId] = useState<GridRowId | null>(null);
  const [errors, setErrors] = useState<ReadonlyMap<GridRowId, InlineFieldError>>(new Map());
  const [unsaved, setUnsaved] = useState<ReadonlyMap<GridRowId, Partial<R>>>(new Map());
  // The options of the latest render, for the grid's callbacks.
  const options = useRef(o);
  options.current = o;

  // A row whose save is on its way is still the row in edit (its cells show what was typed).
  const editingId = useMemo(
    () => Object.keys(rowModesModel).find((id) => rowModesModel[id]?.mode === GridRowModes.Edit) ?? pendingId,
    [rowModesModel, pendingId],
  );
  const editingRef = useRef(editingId);
  editingRef.current = editingId;
  const pendingRef = useRef(pendingId);
  pendingRef.current = pendingId;

  const dropError = useCallback((id: GridRowId, field?: string) => {
    setErrors((m) => {
      if (!m.has(id) || (field && m.get(id)?.field !== field)) return m;
      const next = new Map(m);
      next.delete(id);
      return next;
    });
  }, []);

  const start = useCallback(
    (id: GridRowId, field?: string) => {
      if (pendingRef.current != null) return;
      const other = editingRef.current;
      if (other != null && String(other) !== String(id)) dropError(other);
      setRowModesModel({
        ...(other != null && String(other) !== String(id)
          ? { [other]: { mode: GridRowModes.View, ignoreModifications: true } }
          : {}),
        [id]: { mode: GridRowModes.Edit, ...(field ? { fieldToFocus: field } : {}) },
      });
    },
    [dropError],
  );

  // Leaving edit mode hands the row to processRowUpdate.
  const save = useCallback((id: GridRowId) => {
    if (pendingRef.current != null) return;
    setRowModesModel((m) => ({ ...m, [id]: { mode: GridRowModes.View } }));
  }, []);

  const cancel = useCallback(
    (id: GridRowId) => {
      if (pendingRef.current != null) return;
      dropError(id);
      options.current.onCancel?.(id);
      setRowModesModel((m) => ({ ...m, [id]: { mode: GridRowModes.View, ignoreModifications: true } }));
    },
    [dropError],
  );

  const processRowUpdate = useCallback(
    async (row: R, previous: R, { rowId }: { rowId: GridRowId }) => {
      const { onSave, collect } = options.current;
      setPendingId(rowId);
      try {
        const saved = (await onSave?.(row, previous)) ?? row;
        dropError(rowId);
        if (collect) {
          const changed = changedFields(saved, previous);
          setUnsaved((m) => new Map(m).set(rowId, { ...m.get(rowId), ...changed }));
        }
        setRowModesModel((m) => {
          const { [rowId]: _closed, ...rest } = m;
          return rest;
        });
        return saved;
      } catch (error) {
        const fieldError = options.current.fieldErrorOf?.(error, row) ?? null;
        setErrors((m) => {
          const next = new Map(m);
          if (fieldError) next.set(rowId, fieldError);
          else next.delete(rowId);
          return next;
        });
        throw error;
      } finally {
        setPendingId(null);
      }
    },
    [dropError],
  );

  const onRowEditStart = useCallback<GridEventListener<"rowEditStart">>((params, event) => {
    // One row at a time: a double click or a key in another row does not open it.
    const other = editingRef.current;
    if (pendingRef.current != null || (other != null && String(other) !== String(params.id))) {
      event.defaultMuiPrevented = true;
    }
  }, []);

  const onRowEditStop = useCallback<GridEventListener<"rowEditStop">>(
    (params, event) => {
      // Clicking elsewhere keeps the row open; Escape is Cancel; nothing ends a pending save.
      if (params.reason === GridRowEditStopReasons.rowFocusOut || pendingRef.current != null) {
        event.defaultMuiPrevented = true;
        return;
      }
      if (params.reason === GridRowEditStopReasons.escapeKeyDown) {
        event.defaultMuiPrevented = true;
        cancel(params.id);
      }
    },
    [cancel],
  );

  const getRowClassName = useCallback<NonNullable<DataGridProps<R>["getRowClassName"]>>(
    (params) => (unsaved.has(params.id) ? UNSAVED_ROW_CLASS : ""),
    [unsaved],
  );

  const withUnsaved = useCallback(
    (rows: readonly R[], getRowId: (row: R) => GridRowId = (r) => r.id as GridRowId) =>
      unsaved.size === 0
        ? (rows as R[])
        : rows.map((r) => {
            const changed = unsaved.get(getRowId(r));
            return changed ? { ...r, ...changed } : r;
          }),
    [unsaved],
  );

  const clearUnsaved = useCallback(() => {
    setUnsaved(new Map());
    setErrors(new Map());
    setRowModesModel((m) =>
      Object.fromEntries(
        Object.keys(m).map((id) => [id, { mode: GridRowModes.View, ignoreModifications: true }]),
      ),
    );
  }, []);

  // One object while nothing changes, so a page may build its columns from it in a useMemo.
  return useMemo<InlineRowEdit<R>>(
    () => ({
      editingId,
      pendingId,
      isEditing: (id) => editingId != null && String(editingId) === String(id),
      start,
      save,
      cancel,
      serverError: (id, field) => {
        const e = errors.get(id);
        return e?.field === field ? e.message : undefined;
      },
      clearServerError: dropError,
      unsaved,
      isUnsaved: (id) => unsaved.has(id),
      isDirty: unsaved.size > 0 || editingId != null,
      withUnsaved,
      clearUnsaved,
      gridProps: {
        editMode: "row",
        rowModesModel,
        onRowModesModelChange: setRowModesModel,
        onRowEditStart,
        onRowEditStop,
        processRowUpdate,
        // Shown under the field (fieldErrorOf) or by the caller.
        onProcessRowUpdateError: () => {},
        getRowClassName,
      },
    }),
    [
      editingId,
      pendingId,
      start,
      save,
      cancel,
      errors,
      dropError,
      unsaved,
      withUnsaved,
      clearUnsaved,
      rowModesModel,
      onRowEditStart,
      onRowEditStop,
      processRowUpdate,
      getRowClassName,
    ],
  );
}

/** The fields of `row` whose values differ from `previous`'s. */
function changedFields<R extends GridValidRowModel>(row: R, previous: R): Partial<R> {
  return Object.fromEntries(
    Object.entries(row).filter(([field, value]) => !Object.is(value, previous[field])),
  ) as Partial<R>;
}
