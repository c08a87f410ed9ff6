import { AUDIT_TEXTS, type TAuditResource } from "@linewatch/contracts";
import History from "@mui/icons-material/History";
import {
  Button,
  Dialog,
  DialogActions,
  DialogContent,
  DialogTitle,
  MenuItem,
  TextField,
} from "@mui/material";
import { lazy, Suspense, useState } from "react";
import { PageLoading } from "../../../shared/ui/PageLoading";

// The history list is its own chunk, fetched when a user first opens it: the pages and drawers
// that offer it do not grow.
const ResourceHistory = lazy(() => import("./ResourceHistory").then((m) => ({ default: m.ResourceHistory })));

export type HistoryItem = { id: string; name: string };

/**
 * "History" beside a resource's title or in a page's toolbar: opens a resource's own audit
 * history in a dialog. With several `items` (the signals of a line, the lines of a plant) the
 * dialog lets the user pick which one, starting from `selectedId` (else the first).
 */
export function HistoryButton(p: {
  resource: TAuditResource;
  items: readonly HistoryItem[];
  /** The picker's label when there are several items ("Signal", "Line"). */
  itemLabel?: string;
  selectedId?: string | null;
  disabled?: boolean;
  /** The button's text, when a page offers the history of two resources (default "History"). */
  label?: string;
}) {
  const [isOpen, setOpen] = useState(false);
  const [pickedId, setPickedId] = useState<string | null>(null);
  const item = p.items.find((i) => i.id === (pickedId ?? p.selectedId)) ?? p.items[0];
  const hasChoice = p.items.length > 1;
  const what = AUDIT_TEXTS.resourceLabels[p.resource];
  const title = hasChoice
    ? `${AUDIT_TEXTS.history}: ${what}`
    : `${AUDIT_TEXTS.history}: ${what} ${item?.name ?? ""}`;
  const close = () => {
    setOpen(false);
    setPickedId(null);
  };
  return (
    <>
      <Button
        size="small"
        startIcon={<History />}
        disabled={p.disabled || !item}
        onClick={() => setOpen(true)}
        aria-label={
          hasChoice || !item ? `${AUDIT_TEXTS.history}: ${what}` : `${AUDIT_TEXTS.history} of ${item.name}`
        }
      >
        {AUDIT_TEXTS.history}
      </Button>
      <Dialog open={isOpen} onClose={close} maxWidth="lg" fullWidth aria-label={title}>
        <DialogTitle>{title}</DialogTitle>
        <DialogContent>
          {hasChoice && item && (
            <TextField
              select
              size="small"
              label={p.itemLabel ?? what}
              value={item.id}
              onChange={(e) => setPickedId(e.target.value)}
              sx={{ minWidth: 280, mt: 1, mb: 2 }}
            >
              {p.items.map((i) => (
                <MenuItem key={i.id} value={i.id}>
                  {i.name}
                </MenuItem>
              ))}
            </TextField>
          )}
          {/* The dialog mounts its content while open: the list asks the server afresh each time. */}
          {item && (
            <Suspense fallback={<PageLoading />}>
              <ResourceHistory key={item.id} resource={p.resource} resourceId={item.id} />
            </Suspense>
          )}
        </DialogContent>
        <DialogActions>
          <Button onClick={close}>Close</Button>
        </DialogActions>
      </Dialog>
    </>
  );
}
