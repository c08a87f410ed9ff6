import { SPC_LIMITS_MESSAGES } from "@linewatch/contracts";
import { MenuItem, MenuList, Paper, Popper, TextField } from "@mui/material";
import { type KeyboardEvent, memo, startTransition, useCallback, useEffect, useRef, useState } from "react";
import { applyCompletion, signalCompletions } from "../spc-limits.form";

/**
 * How long typing pauses before the page hears a cell's text (and the grid re-renders, its row
 * marked unsaved and its messages shown): a keystroke only repaints its cell, so it answers within
 * 50 ms with 500 signals × 5 models (issue #14, measured by npm run bench:cap-limits). Leaving the
 * cell (Save Changes, Discard Changes, another cell) hands the text over at once.
 */
const COMMIT_IDLE_MS = 150;

/**
 * One limit cell of a model row (requirements.md settings §5 "Limits cell"): a number or a formula, signal
 * names completed after '{' as they are typed. A locked cell (single-sided) reads 'Single Sided'.
 */
export const LimitCell = memo(function LimitCell(p: {
  label: string;
  value: string;
  error?: string;
  isLocked: boolean;
  /** No unsaved edit on the page yet: the first keystroke is handed over at once, so the page marks
   * the row unsaved and locks its line selector without waiting for a pause. */
  isFirstEdit: boolean;
  signalNames: string[];
  onChange: (text: string) => void;
}) {
  const input = useRef<HTMLInputElement | null>(null);
  const [caret, setCaret] = useState<number | null>(null);
  // The cell keeps what is typed: the grid hands the page's value back a render or more later,
  // and a fast typist must not lose keystrokes to an older value. Values this cell sent are
  // awaited in order; any other value (Discard Changes, a save) replaces the text.
  const [text, setText] = useState(p.value);
  const pending = useRef<string[]>([]);
  useEffect(() => {
    const at = pending.current.indexOf(p.value);
    if (at >= 0) pending.current = pending.current.slice(at + 1);
    else {
      pending.current = [];
      setText(p.value);
    }
  }, [p.value]);
  const onChange = useRef(p.onChange);
  onChange.current = p.onChange;
  const timer = useRef<number | null>(null);
  const unsent = useRef<string | null>(null);
  /** Hands the unsent text to the page: at once (leaving the cell), or as a transition (a pause). */
  const flush = useCallback((isPause = false) => {
    if (timer.current !== null) window.clearTimeout(timer.current);
    timer.current = null;
    const next = unsent.current;
    if (next === null) return;
    unsent.current = null;
    pending.current.push(next);
    // After a pause the grid's re-render must not hold up the next keystroke: React may interrupt it.
    if (isPause) startTransition(() => onChange.current(next));
    else onChange.current(next);
  }, []);
  // A row scrolled out of the grid's window unmounts: its text is handed over first.
  useEffect(() => () => flush(), [flush]);
  const change = (next: string, isNow = false) => {
    setText(next);
    unsent.current = next;
    if (timer.current !== null) window.clearTimeout(timer.current);
    if (isNow || p.isFirstEdit) flush();
    else timer.current = window.setTimeout(() => flush(true), COMMIT_IDLE_MS);
  };
  const completion = caret === null ? null : signalCompletions(text, caret, p.signalNames);
  const isOpen = !!completion && completion.matches.length > 0;

  if (p.isLocked) {
    return (
      <TextField
        size="small"
        disabled
        value={SPC_LIMITS_MESSAGES.singleSided}
        slotProps={{ htmlInput: { "aria-label": p.label } }}
      />
    );
  }

  const choose = (name: string) => {
    if (!completion || caret === null) return;
    const next = applyCompletion(text, caret, completion.start, name);
    change(next.text, true);
    setCaret(null);
    requestAnimationFrame(() => input.current?.setSelectionRange(next.caret, next.caret));
  };
  // The grid's keyboard navigation must not take the keys typed into the cell.
  const onKeyDown = (e: KeyboardEvent) => {
    e.stopPropagation();
    if (e.key === "Escape") setCaret(null);
    if (e.key === "Enter" && isOpen && completion?.matches[0]) {
      e.preventDefault();
      choose(completion.matches[0]);
    }
  };

  return (
    <>
      <TextField
        size="small"
        value={text}
        error={!!p.error}
        helperText={p.error}
        inputRef={input}
        onChange={(e) => {
          change(e.target.value);
          setCaret(e.target.selectionStart);
        }}
        onBlur={() => {
          setCaret(null);
          flush();
        }}
        onKeyDown={onKeyDown}
        slotProps={{
          htmlInput: { "aria-label": p.label, "aria-invalid": !!p.error },
          formHelperText: { sx: { m: 0, lineHeight: 1.1 } },
        }}
        sx={{ width: "100%" }}
      />
      <Popper open={isOpen} anchorEl={input.current} placement="bottom-start" sx={{ zIndex: 1500 }}>
        <Paper elevation={4}>
          <MenuList dense aria-label="Signals">
            {completion?.matches.map((name) => (
              <MenuItem key={name} onMouseDown={(e) => e.preventDefault()} onClick={() => choose(name)}>
                {name}
              </MenuItem>
            ))}
          </MenuList>
        </Paper>
      </Popper>
    </>
  );
});
