import { SNACKBAR_MS } from "@linewatch/contracts";
import { Alert, type AlertColor, Snackbar } from "@mui/material";
import { createContext, type ReactNode, useCallback, useContext, useMemo, useState } from "react";
import { localizeText } from "../i18n/language";

type Message = { key: number; text: string; severity: AlertColor; durationMs: number };
type Show = (text: string, opts?: { severity?: AlertColor; durationMs?: number }) => void;

const SnackbarContext = createContext<Show | null>(null);

/** Snackbars with the spec's timings: 3300 ms unless told otherwise (monitor save/delete: 3000 ms). */
export function SnackbarProvider({ children }: { children: ReactNode }) {
  const [queue, setQueue] = useState<Message[]>([]);
  const show = useCallback<Show>((text, opts) => {
    setQueue((q) => [
      ...q,
      {
        key: Date.now() + Math.random(),
        // A catalogue's English text (the spec's success message, the server's refusal) in the
        // interface's language.
        text: localizeText(text),
        severity: opts?.severity ?? "success",
        durationMs: opts?.durationMs ?? SNACKBAR_MS,
      },
    ]);
  }, []);
  const current = queue[0];
  const close = () => setQueue((q) => q.slice(1));
  const value = useMemo(() => show, [show]);
  return (
    <SnackbarContext.Provider value={value}>
      {children}
      <Snackbar
        key={current?.key}
        open={current != null}
        autoHideDuration={current?.durationMs}
        onClose={(_, reason) => reason !== "clickaway" && close()}
        anchorOrigin={{ vertical: "bottom", horizontal: "center" }}
      >
        <Alert onClose={close} severity={current?.severity} variant="filled" sx={{ width: "100%" }}>
          {current?.text}
        </Alert>
      </Snackbar>
    </SnackbarContext.Provider>
  );
}

/** The snackbar, or null outside a SnackbarProvider (a hook that may show none needs no provider). */
export function useOptionalSnackbar(): Show | null {
  return useContext(SnackbarContext);
}

export function useSnackbar(): Show {
  const show = useContext(SnackbarContext);
  if (!show) throw new Error("useSnackbar needs a SnackbarProvider");
  return show;
}
