import { lazy } from "react";
import type { ConfirmDialogProps } from "./ConfirmDialogView";
import { MountWhenOpened } from "./MountWhenOpened";

// The dialog's code loads when a confirmation is first asked for, not with the page (issue #17).
const ConfirmDialogView = lazy(() =>
  import("./ConfirmDialogView").then((m) => ({ default: m.ConfirmDialogView })),
);

export type { ConfirmDialogProps };

/** The confirm dialog every destructive action goes through. Enter confirms, Escape cancels. */
export function ConfirmDialog(p: ConfirmDialogProps) {
  return (
    <MountWhenOpened isOpen={p.open}>
      <ConfirmDialogView {...p} />
    </MountWhenOpened>
  );
}
