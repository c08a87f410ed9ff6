// Signal Management's remembered line and signal (requirements.md settings §2.8: "A remembered line and signal
// are read from session storage; when present the line and signal are preselected"). The page
// writes them as the user picks; the monitor form's 'Configure now' link writes the signal it is
// about before it opens the page.

export const SESSION_KEYS = {
  line: "linewatch.signalManagement.lineId",
  signal: "linewatch.signalManagement.signalId",
} as const;

export function readRemembered(storage: Pick<Storage, "getItem"> = sessionStorage) {
  try {
    return { lineId: storage.getItem(SESSION_KEYS.line), signalId: storage.getItem(SESSION_KEYS.signal) };
  } catch {
    return { lineId: null, signalId: null };
  }
}

export function remember(
  lineId: string | null,
  signalId: string | null,
  storage: Pick<Storage, "setItem" | "removeItem"> = sessionStorage,
) {
  try {
    for (const [key, value] of [
      [SESSION_KEYS.line, lineId],
      [SESSION_KEYS.signal, signalId],
    ] as const)
      if (value) storage.setItem(key, value);
      else storage.removeItem(key);
  } catch {
    // Storage refused (private mode): nothing to remember.
  }
}
