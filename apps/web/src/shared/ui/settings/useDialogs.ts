import { useCallback, useState } from "react";

/**
 * The dialogs of a page in one registry (Infisical's usePopUp): which one is open and the data it
 * was opened with. A page opens `delete` with its row and every other dialog is closed.
 *
 *   const dialogs = useDialogs<{ delete: TUser; rotate: undefined }>();
 *   dialogs.open("delete", user); dialogs.isOpen("delete"); dialogs.data("delete"); dialogs.close();
 */
export function useDialogs<M extends Record<string, unknown>>() {
  const [state, setState] = useState<{ name: keyof M; data: unknown } | null>(null);
  const open = useCallback(<K extends keyof M>(name: K, data: M[K]) => setState({ name, data }), []);
  const close = useCallback(() => setState(null), []);
  return {
    open,
    close,
    isOpen: (name: keyof M) => state?.name === name,
    /** The data the dialog was opened with, while it is open. */
    data: <K extends keyof M>(name: K): M[K] | undefined =>
      state?.name === name ? (state.data as M[K]) : undefined,
  };
}
