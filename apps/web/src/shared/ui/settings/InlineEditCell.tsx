import { TextField } from "@mui/material";
import { createContext, useContext, useLayoutEffect, useRef } from "react";
import { type GridRenderEditCellParams, type SettingsColumn, useGridApiContext } from "./settings-grid";
import type { InlineRowEdit } from "./useInlineRowEdit";

/** What an edit cell asks of the grid's inline edit (of any row type). */
export type InlineEditCellContext = Pick<
  InlineRowEdit<object>,
  "pendingId" | "serverError" | "clearServerError"
>;

/** The grid's inline edit, for its edit cells (InlineEditGrid provides it). */
export const InlineEditContext = createContext<InlineEditCellContext | null>(null);

/** What a cell being edited holds as text: the typed text, or the stored value at the start. */
export const editText = (value: unknown) => (value == null ? "" : String(value));

/**
 * A text field in a cell of the row in edit: the field's message under it (the column's
 * validation, else the server's answer to the last save), disabled while the save runs. Enter and
 * Escape reach the grid, which saves or cancels the row.
 */
export function InlineEditCell<R extends object>(
  p: GridRenderEditCellParams<R> & {
    label: string;
    placeholder?: string;
    inputMode?: "numeric" | "url" | "text";
  },
) {
  const apiRef = useGridApiContext();
  const edit = useContext(InlineEditContext);
  const inputRef = useRef<HTMLInputElement>(null);
  const isPending = edit?.pendingId != null && String(edit.pendingId) === String(p.id);
  const message = (typeof p.error === "string" && p.error) || edit?.serverError(p.id, p.field);

  // The grid moves the focus between the row's cells; the field follows it.
  useLayoutEffect(() => {
    if (p.hasFocus) inputRef.current?.focus();
  }, [p.hasFocus]);

  return (
    <TextField
      inputRef={inputRef}
      size="small"
      fullWidth
      value={editText(p.value)}
      placeholder={p.placeholder}
      disabled={isPending}
      error={Boolean(message)}
      helperText={message || undefined}
      onChange={(e) => {
        edit?.clearServerError(p.id, p.field);
        apiRef.current.setEditCellValue({ id: p.id, field: p.field, value: e.target.value });
      }}
      slotProps={{
        htmlInput: { "aria-label": p.label, inputMode: p.inputMode },
        formHelperText: { sx: { mx: 0, lineHeight: 1.2 } },
      }}
      sx={{ mx: 1, alignSelf: "center" }}
    />
  );
}

export type InlineEditColumnOptions<R extends object> = SettingsColumn<R> & {
  /** The field's message for the typed text, or null when it is valid (requirements.md settings §5). */
  validate?: (text: string, row: R) => string | null;
  /** The stored value of valid text (a number, null for empty); default the text itself. */
  parse?: (text: string) => unknown;
  /** The field's accessible name in a row. */
  inputLabel?: (row: R) => string;
  placeholder?: string;
  inputMode?: "numeric" | "url" | "text";
};

/**
 * A column edited in place: editable, its text checked by `validate` on every change (an invalid
 * field keeps the row open, Enter included) and stored through `parse` when the row is saved.
 */
export function inlineEditColumn<R extends object>({
  validate,
  parse,
  inputLabel,
  placeholder,
  inputMode,
  ...col
}: InlineEditColumnOptions<R>): SettingsColumn<R> {
  return {
    ...col,
    editable: true,
    preProcessEditCellProps: ({ props, row }) => ({
      ...props,
      error: validate?.(editText(props.value), row) ?? false,
    }),
    ...(parse
      ? { valueSetter: (value: unknown, row: R) => ({ ...row, [col.field]: parse(editText(value)) }) }
      : {}),
    renderEditCell: (params) => (
      <InlineEditCell
        {...params}
        label={inputLabel?.(params.row) ?? col.headerName ?? col.field}
        placeholder={placeholder}
        inputMode={inputMode}
      />
    ),
  };
}
