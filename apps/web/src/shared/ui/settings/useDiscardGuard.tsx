import { SETTINGS_KIT_MESSAGES } from "@linewatch/contracts";
import { useCallback, useState } from "react";
import { useTexts } from "../../i18n/language";
import { ConfirmDialog } from "../ConfirmDialog";

/**
 * Asks before unsaved changes are thrown away (requirements.md settings §2.9: 'Discard Changes?' /
 * 'You have unsaved changes, do you want to discard?', Exit or Continue Editing). `guard(action)`
 * runs the action at once when nothing is dirty, else after the user chooses Exit.
 */
export function useDiscardGuard(isDirty: boolean) {
  const M = useTexts(SETTINGS_KIT_MESSAGES);
  const [pending, setPending] = useState<(() => void) | null>(null);
  const guard = useCallback(
    (action: () => void) => {
      if (isDirty) setPending(() => action);
      else action();
    },
    [isDirty],
  );
  const dialog = (
    <ConfirmDialog
      open={pending != null}
      title={M.discardTitle}
      confirmLabel={M.discardExit}
      cancelLabel={M.discardContinue}
      onCancel={() => setPending(null)}
      onConfirm={() => {
        const action = pending;
        setPending(null);
        action?.();
      }}
    >
      {M.discardText}
    </ConfirmDialog>
  );
  return { guard, dialog };
}
