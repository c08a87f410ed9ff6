import type { TAuditResource } from "@linewatch/contracts";
import {
  Button,
  Dialog,
  DialogActions,
  DialogContent,
  DialogTitle,
  MenuItem,
  TextField,
} from "@mui/material";
import { lazy, Suspense } from "react";
import { PageLoading } from "../../../shared/ui/PageLoading";

const ResourceHistory = lazy(() => import("./ResourceHistory").then((m) => ({ default: m.ResourceHistory })));

export type HistoryItem = { id: string; name: string };

/** HistoryButton's dialog: a resource's audit history, with a picker when there are several. */
export function HistoryDialog(p: {
  isOpen: boolean;
  title: string;
  resource: TAuditResource;
  items: readonly HistoryItem[];
  item: HistoryItem | undefined;
  pickerLabel: string;
  onPick: (id: string) => void;
  onClose: () => void;
}) {
  return (
    <Dialog open={p.isOpen} onClose={p.onClose} maxWidth="lg" fullWidth aria-label={p.title}>
      <DialogTitle>{p.title}</DialogTitle>
      <DialogContent>
        {p.items.length > 1 && p.item && (
          <TextField
            select
            size="small"
            label={p.pickerLabel}
            value={p.item.id}
            onChange={(e) => p.onPick(e.target.value)}
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
        {p.item && (
          <Suspense fallback={<PageLoading />}>
            <ResourceHistory key={p.item.id} resource={p.resource} resourceId={p.item.id} />
          </Suspense>
        )}
      </DialogContent>
      <DialogActions>
        <Button onClick={p.onClose}>Close</Button>
      </DialogActions>
    </Dialog>
  );
}
