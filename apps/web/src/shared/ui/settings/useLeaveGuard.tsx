import { SETTINGS_KIT_MESSAGES } from "@linewatch/contracts";
import { useEffect } from "react";
import { useBlocker } from "react-router";
import { useTexts } from "../../i18n/language";
import { ConfirmDialog } from "../ConfirmDialog";

/**
 * Asks before unsaved changes are left behind by leaving the section: another Settings menu item
 * (the section is in the URL), a link, the browser's back, or closing the tab. Same words as
 * useDiscardGuard (requirements.md settings §2.9: 'Discard Changes?', Exit or Continue Editing); render the
 * returned dialog. Needs a data router (the app's createBrowserRouter).
 */
export function useLeaveGuard(isDirty: boolean) {
  const M = useTexts(SETTINGS_KIT_MESSAGES);
  const blocker = useBlocker(
    ({ currentLocation, nextLocation }) =>
      isDirty &&
      (currentLocation.pathname !== nextLocation.pathname || currentLocation.search !== nextLocation.search),
  );
  // Closing or reloading the tab: the browser asks with its own words.
  useEffect(() => {
    if (!isDirty) return;
    const ask = (e: BeforeUnloadEvent) => e.preventDefault();
    window.addEventListener("beforeunload", ask);
    return () => window.removeEventListener("beforeunload", ask);
  }, [isDirty]);

  return (
    <ConfirmDialog
      open={blocker.state === "blocked"}
      title={M.discardTitle}
      confirmLabel={M.discardExit}
      cancelLabel={M.discardContinue}
      onCancel={() => blocker.reset?.()}
      onConfirm={() => blocker.proceed?.()}
    >
      {M.discardText}
    </ConfirmDialog>
  );
}
