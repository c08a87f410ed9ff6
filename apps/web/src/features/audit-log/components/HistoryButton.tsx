import { AUDIT_TEXTS, type TAuditResource } from "@linewatch/contracts";
import History from "@mui/icons-material/History";
import { Button } from "@mui/material";
import { lazy, useState } from "react";
import { useTexts } from "../../../shared/i18n/language";
import { MountWhenOpened } from "../../../shared/ui/MountWhenOpened";
import type { HistoryItem } from "./HistoryDialog";

// The dialog and the history list are their own chunks, fetched when a user first opens it: the
// pages and drawers that offer it do not grow.
const HistoryDialog = lazy(() => import("./HistoryDialog").then((m) => ({ default: m.HistoryDialog })));

export type { HistoryItem };

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
  const A = useTexts(AUDIT_TEXTS);
  const [isOpen, setOpen] = useState(false);
  const [pickedId, setPickedId] = useState<string | null>(null);
  const item = p.items.find((i) => i.id === (pickedId ?? p.selectedId)) ?? p.items[0];
  const hasChoice = p.items.length > 1;
  const what = A.resourceLabels[p.resource];
  const text = p.label ?? A.history;
  const title = hasChoice ? `${A.history}: ${what}` : `${A.history}: ${what} ${item?.name ?? ""}`;
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
        aria-label={hasChoice || !item ? `${A.history}: ${what}` : A.historyOf(text, item.name)}
      >
        {text}
      </Button>
      <MountWhenOpened isOpen={isOpen}>
        <HistoryDialog
          isOpen={isOpen}
          title={title}
          resource={p.resource}
          items={p.items}
          item={item}
          pickerLabel={p.itemLabel ?? what}
          onPick={setPickedId}
          onClose={close}
        />
      </MountWhenOpened>
    </>
  );
}
