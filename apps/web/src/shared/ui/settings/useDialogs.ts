import { useCallback, useState } from "react";

/**
 * The dialogs of a page in one registry (Infisical's usePopUp): which one is open and the data it
 * was opened with. A page opens `delete` with its row and every other dialog is closed.
 *
 *   const dialogs = useDialogs<{ delete: TUser; rotate: undefined }>();
 *   dialogs.open("delete", user); dialogs.isOpen("delete"); dialogs.data("delete"); dialogs.close();
 *
 * A closed dialog keeps its data until another opens, so its text does not blank out while it
 * fades away; `forget` drops it (a secret shown once, a drawer's content once it has slid out).
 */
export function useDialogs<M extends Record<string, unknown>>() {
  const [state, setState] = useState<{ name: keyof M; data: unknown; isOpen: boolean } | null>(null);
  const open = useCallback(
    <K extends keyof M>(name: K, data: M[K]) => setState({ name, data, isOpen: true }),
    [],
  );
  const close = useCallback(() => setState((s) => (s?.isOpen ? { ...s, isOpen: false } : s)), []);
  /** Drops the data of `name` once it is closed (another dialog's stays). */
  const forget = useCallback(
    (name: keyof M) => setState((s) => (s && s.name === name && !s.isOpen ? null : s)),
    [],
  );
  return {
    open,
    close,
    forget,
    /** Closes the dialog and drops its data at once. */
    closeAndForget: useCallback(() => setState(null), []),
    isOpen: (name: keyof M) => state?.isOpen === true && state.name === name,
    /** The data the dialog was opened with, while it is open and after it closed until another opens. */
    data: <K extends keyof M>(name: K): M[K] | undefined =>
      state?.name === name ? (state.data as M[K]) : undefined,
  };
}
