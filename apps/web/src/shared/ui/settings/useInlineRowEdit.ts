import { type RefObject, useCallback, useMemo, useRef, useState } from "react";
import { cellValue, fieldValue, type GridRowId, type SettingsColumn } from "./settings-grid";

/** A failed save's message and the field it belongs under. */
export type InlineFieldError = { field: string; message: string };

export type InlineRowEditOptions<R extends object> = {
  /**
   * Saves the edited row (with the typed values stored through the columns' valueSetter). Resolve
   * to the row as saved (or nothing: the edited row stands); reject to keep the row in edit with
   * what was typed. Pages that collect edits (`collect`) may leave it out.
   */
  onSave?: (row: R, previous: R) => Promise<R | undefined> | R | undefined;
  /** Where a rejected save's error is shown: under a field, or null when the caller shows it (a snackbar). */
  fieldErrorOf?: (error: unknown, row: R) => InlineFieldError | null;
  /**
   * The page collects several rows' edits before one Save Changes (requirements.md settings §4 "SPC limits"):
   * a saved row's changed fields are kept in `unsaved` and the row is marked; nothing is sent
   * until the page sends it.
   */
  collect?: boolean;
  /** The row's edit was cancelled (Cancel or Escape); what was typed is dropped. */
  onCancel?: (id: GridRowId) => void;
};

/** What the grid tells the row edit: its rows as shown, the columns edited in a row, where the focus goes. */
export type GridRowEditHost<R extends object> = {
  getRow: (id: GridRowId) => R | undefined;
  editableColumns: (row: R) => SettingsColumn<R>[];
  /** Puts the grid's focus on a cell (an edit cell focuses its field). */
  focusCell: (id: GridRowId, field: string) => void;
  /** The saved row stands in the grid until the page's rows change. */
  onRowSaved: (id: GridRowId, row: R) => void;
};

/** A typed value of the row in edit and the column's message for it. */
export type EditCell = { value: unknown; error: string | boolean };

/** The grid's side of the row edit (SettingsGrid's `rowEdit`; InlineEditGrid passes it). */
export type GridRowEdit<R extends object> = {
  editingId: GridRowId | null;
  pendingId: GridRowId | null;
  /** The typed value of `field` in the row in edit, once it was changed. */
  editCell: (field: string) => EditCell | undefined;
  setEditCell: (id: GridRowId, field: string, cell: EditCell) => void;
  /** A double click or Enter on an editable cell: opens its row unless another row is open. */
  requestStart: (id: GridRowId, field: string) => void;
  save: (id: GridRowId) => void;
  cancel: (id: GridRowId) => void;
  getRowClassName: (p: { id: GridRowId }) => string;
  host: RefObject<GridRowEditHost<R> | null>;
};

/** The grid props the hook drives (spread on SettingsGrid, or use InlineEditGrid). */
export type InlineEditGridProps<R extends object> = { rowEdit: GridRowEdit<R> };

export type InlineRowEdit<R extends object> = {
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

type Editing = { id: GridRowId; cells: ReadonlyMap<string, EditCell> };

const sameId = (a: GridRowId | null | undefined, b: GridRowId) => a != null && String(a) === String(b);

/**
 * Editing grid rows in place (SettingsGrid's row editing): one row in edit at a time; Enter saves
 * and Escape cancels (the grid's keys), clicking elsewhere keeps the row open; a field's
 * validation (the column's preProcessEditCellProps, see inlineEditColumn) keeps the row open with
 * the message under the field; while the caller's save runs the row is pending; a rejected save
 * keeps the row open with what was typed and, through `fieldErrorOf`, the server's message under
 * its field.
 */
export function useInlineRowEdit<R extends object>(o: InlineRowEditOptions<R> = {}): InlineRowEdit<R> {
  const [editing, setEditing] = useState<Editing | null>(null);
  const [pendingId, setPendingId] = useState<GridRowId | null>(null);
  const [errors, setErrors] = useState<ReadonlyMap<GridRowId, InlineFieldError>>(new Map());
  const [unsaved, setUnsaved] = useState<ReadonlyMap<GridRowId, Partial<R>>>(new Map());
  const host = useRef<GridRowEditHost<R> | null>(null);
  // The options and state of the latest render, for callbacks that must not change with them.
  const options = useRef(o);
  options.current = o;
  const editingRef = useRef(editing);
  editingRef.current = editing;
  const pendingRef = useRef(pendingId);
  pendingRef.current = pendingId;

  const editingId = editing?.id ?? null;

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
      const other = editingRef.current?.id;
      if (other != null && !sameId(other, id)) dropError(other);
      setEditing({ id, cells: new Map() });
      if (field) host.current?.focusCell(id, field);
    },
    [dropError],
  );

  const cancel = useCallback(
    (id: GridRowId) => {
      if (pendingRef.current != null || !sameId(editingRef.current?.id, id)) return;
      dropError(id);
      options.current.onCancel?.(id);
      setEditing(null);
    },
    [dropError],
  );

  const save = useCallback(
    async (id: GridRowId) => {
      const current = editingRef.current;
      const previous = host.current?.getRow(id);
      if (pendingRef.current != null || !current || !sameId(current.id, id) || !previous) return;
      // An invalid field keeps the row open (its message is under it).
      if ([...current.cells.values()].some((c) => c.error)) return;
      let row = previous;
      for (const col of host.current?.editableColumns(previous) ?? []) {
        const value = current.cells.has(col.field)
          ? current.cells.get(col.field)?.value
          : cellValue(col, previous);
        row = col.valueSetter ? col.valueSetter(value, row) : { ...row, [col.field]: value };
      }
      const { onSave, collect, fieldErrorOf } = options.current;
      pendingRef.current = id;
      setPendingId(id);
      try {
        const saved = (await onSave?.(row, previous)) ?? row;
        dropError(id);
        if (collect) {
          const changed = changedFields(saved, previous);
          setUnsaved((m) => new Map(m).set(id, { ...m.get(id), ...changed }));
        }
        setEditing((e) => (e && sameId(e.id, id) ? null : e));
        host.current?.onRowSaved(id, saved);
      } catch (error) {
        const fieldError = fieldErrorOf?.(error, row) ?? null;
        setErrors((m) => {
          const next = new Map(m);
          if (fieldError) next.set(id, fieldError);
          else next.delete(id);
          return next;
        });
      } finally {
        pendingRef.current = null;
        setPendingId(null);
      }
    },
    [dropError],
  );

  // One row at a time: a double click or a key in another row does not open it.
  const requestStart = useCallback(
    (id: GridRowId, field: string) => {
      const other = editingRef.current?.id;
      if (pendingRef.current != null || (other != null && !sameId(other, id))) return;
      if (other == null) start(id, field);
      else host.current?.focusCell(id, field);
    },
    [start],
  );

  const setEditCell = useCallback((id: GridRowId, field: string, cell: EditCell) => {
    setEditing((e) => (e && sameId(e.id, id) ? { id: e.id, cells: new Map(e.cells).set(field, cell) } : e));
  }, []);

  const withUnsaved = useCallback(
    (rows: readonly R[], getRowId: (row: R) => GridRowId = (r) => fieldValue(r, "id") as GridRowId) =>
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
    setEditing(null);
  }, []);

  const rowEdit = useMemo<GridRowEdit<R>>(
    () => ({
      editingId,
      pendingId,
      editCell: (field) => editing?.cells.get(field),
      setEditCell,
      requestStart,
      save: (id) => void save(id),
      cancel,
      getRowClassName: ({ id }) => (unsaved.has(id) ? UNSAVED_ROW_CLASS : ""),
      host,
    }),
    [editingId, pendingId, editing, setEditCell, requestStart, save, cancel, unsaved],
  );

  // One object while nothing changes, so a page may build its columns from it in a useMemo.
  return useMemo<InlineRowEdit<R>>(
    () => ({
      editingId,
      pendingId,
      isEditing: (id) => sameId(editingId, id),
      start,
      save: (id) => void save(id),
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
      gridProps: { rowEdit },
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
      rowEdit,
    ],
  );
}

/** The fields of `row` whose values differ from `previous`'s. */
function changedFields<R extends object>(row: R, previous: R): Partial<R> {
  return Object.fromEntries(
    Object.entries(row).filter(([field, value]) => !Object.is(value, fieldValue(previous, field))),
  ) as Partial<R>;
}
