import { AUDIT_TEXTS, type TAuditResource } from "@linewatch/contracts";
import History from "@mui/icons-material/History";
import { Button, Dialog, DialogActions, DialogContent, DialogTitle } from "@mui/material";
import { lazy, Suspense, useState } from "react";
import { PageLoading } from "../../../shared/ui/PageLoading";

// The history list is its own chunk, fetched when a user first opens it: the pages and drawers
// that offer it do not grow.
const ResourceHistory = lazy(() => import("./ResourceHistory").then((m) => ({ default: m.ResourceHistory })));

/**
 * "History" beside a resource's title: opens the resource's own audit history in a dialog.
 * `name` is the resource's name now, for the dialog's title.
 */
export function HistoryButton(p: {
  resource: TAuditResource;
  resourceId: string;
  name: string;
  disabled?: boolean;
}) {
  const [isOpen, setOpen] = useState(false);
  const title = `${AUDIT_TEXTS.history}: ${AUDIT_TEXTS.resourceLabels[p.resource]} ${p.name}`;
  return (
    <>
      <Button
        size="small"
        startIcon={<History />}
        disabled={p.disabled}
        onClick={() => setOpen(true)}
        aria-label={`${AUDIT_TEXTS.history} of ${p.name}`}
      >
        {AUDIT_TEXTS.history}
      </Button>
      <Dialog open={isOpen} onClose={() => setOpen(false)} maxWidth="lg" fullWidth aria-label={title}>
        <DialogTitle>{title}</DialogTitle>
        <DialogContent>
          {/* The dialog mounts its content while open: the list asks the server afresh each time. */}
          <Suspense fallback={<PageLoading />}>
            <ResourceHistory resource={p.resource} resourceId={p.resourceId} />
          </Suspense>
        </DialogContent>
        <DialogActions>
          <Button onClick={() => setOpen(false)}>Close</Button>
        </DialogActions>
      </Dialog>
    </>
  );
}
