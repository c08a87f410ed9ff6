import { lazy, Suspense } from "react";
import type { CapabilityDialogProps } from "./CapabilityDialog";

// The view and its charts are their own chunk, fetched when a user first opens it: the grid
// pages and the alert drawer that offer it do not grow.
const CapabilityDialog = lazy(() =>
  import("./CapabilityDialog").then((m) => ({ default: m.CapabilityDialog })),
);

/** The capability view, loaded on first open; render it only while it is open. */
export function LazyCapabilityDialog(p: CapabilityDialogProps) {
  return (
    <Suspense fallback={null}>
      <CapabilityDialog {...p} />
    </Suspense>
  );
}
