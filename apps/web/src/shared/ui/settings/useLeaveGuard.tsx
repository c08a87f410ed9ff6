import { SETTINGS_KIT_MESSAGES } from "@linewatch/contracts";
import { useEffect } from "react";
import { useBlocker } from "react-router";
import { ConfirmDialog } from "../ConfirmDialog";

/**
 * Asks before unsaved changes are left behind by leaving the section: another Settings menu item
 * (the section is in the URL), a link, the browser's back, or closing the tab. Same words as
 * useDiscardGuard (requirements.md settings §2.9: 'Discard Changes?', Exit or Continue Editing); render the
 * returned dialog. Needs a data router (the app's createBrowserRouter).
 */
export function useLeaveGuard(isDirty: boolean) {
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
      title={SETTINGS_KIT_MESSAGES.discardTitle}
      confirmLabel={SETTINGS_KIT_MESSAGES.discardExit}
      cancelLabel={SETTINGS_KIT_MESSAGES.discardContinue}
      onCancel={() => blocker.reset?.()}
      onConfirm={() => blocker.proceed?.()}
    >
      {SETTINGS_KIT_MESSAGES.discardText}
    </ConfirmDialog>
  );
}
