import { auditChanges, type TAuditEntry } from "@linewatch/contracts";
import { Box, Button, Typography } from "@mui/material";
import { useState } from "react";
import { formatAuditValue, shortAuditValue } from "../audit-log.format";

/**
 * What a record changed, one field a line: "field: before → after" (from auditChanges). A long
 * value (JSON of a list or a rule) shows its start; "Show all" opens the whole text.
 */
export function AuditChanges({ entry }: { entry: Pick<TAuditEntry, "before" | "after"> }) {
  const changes = auditChanges(entry.before, entry.after);
  const [isOpen, setOpen] = useState(false);
  const texts = changes.map((c) => ({
    field: c.field,
    before: formatAuditValue(c.before),
    after: formatAuditValue(c.after),
  }));
  const isCut = texts.some((t) => shortAuditValue(t.before).isCut || shortAuditValue(t.after).isCut);
  const shown = (s: string) => (isOpen ? s : shortAuditValue(s).text);
  if (texts.length === 0) return <Typography variant="body2">—</Typography>;
  return (
    <Box component="ul" sx={{ m: 0, p: 0, listStyle: "none" }}>
      {texts.map((t) => (
        <Box
          component="li"
          key={t.field}
          sx={{ typography: "body2", overflowWrap: "anywhere", whiteSpace: isOpen ? "pre-wrap" : undefined }}
        >
          <Box component="span" sx={{ fontWeight: 500 }}>
            {t.field}
          </Box>
          : {shown(t.before)} → {shown(t.after)}
        </Box>
      ))}
      {isCut && (
        <li>
          <Button
            size="small"
            aria-expanded={isOpen}
            onClick={() => setOpen((o) => !o)}
            sx={{ p: 0, minWidth: 0 }}
          >
            {isOpen ? "Show less" : "Show all"}
          </Button>
        </li>
      )}
    </Box>
  );
}
