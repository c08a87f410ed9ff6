import { AUDIT_PAGE_SIZE, AUDIT_TEXTS, type TAuditEntry } from "@linewatch/contracts";
import {
  Chip,
  Paper,
  Table,
  TableBody,
  TableCell,
  TableContainer,
  TableHead,
  TablePagination,
  TableRow,
  Typography,
} from "@mui/material";
import { formatDateTime } from "../../../shared/format";
import { AuditChanges } from "./AuditChanges";

/** Marks a record made by provider staff acting for the customer. */
export const PROVIDER_STAFF_MARK = "Provider staff";

/**
 * Audit records newest first (the server's order), paged on the server: time, user, resource and
 * name (unless the table is one resource's history), action and the changed fields.
 */
export function AuditEntriesTable(p: {
  label: string;
  entries: readonly TAuditEntry[];
  total: number;
  /** Pages from 0, AUDIT_PAGE_SIZE records each. */
  page: number;
  onPage: (page: number) => void;
  timeZone: string;
  /** One resource's history: the resource and name columns are left out. */
  isOneResource?: boolean;
}) {
  return (
    <Paper variant="outlined">
      <TableContainer>
        <Table size="small" aria-label={p.label}>
          <TableHead>
            <TableRow>
              <TableCell sx={{ width: 190 }}>Time</TableCell>
              <TableCell sx={{ width: 220 }}>User</TableCell>
              {!p.isOneResource && <TableCell sx={{ width: 130 }}>Resource</TableCell>}
              {!p.isOneResource && <TableCell sx={{ width: 180 }}>Name</TableCell>}
              <TableCell sx={{ width: 90 }}>Action</TableCell>
              <TableCell>Changes</TableCell>
            </TableRow>
          </TableHead>
          <TableBody>
            {p.entries.map((e) => (
              <TableRow key={e.id} sx={{ verticalAlign: "top" }}>
                <TableCell sx={{ whiteSpace: "nowrap" }}>{formatDateTime(e.at, p.timeZone)}</TableCell>
                <TableCell sx={{ overflowWrap: "anywhere" }}>
                  {e.actorEmail}
                  {e.actorIsProviderStaff && (
                    <Chip size="small" variant="outlined" label={PROVIDER_STAFF_MARK} sx={{ ml: 0.5 }} />
                  )}
                </TableCell>
                {!p.isOneResource && <TableCell>{AUDIT_TEXTS.resourceLabels[e.resource]}</TableCell>}
                {!p.isOneResource && (
                  <TableCell sx={{ overflowWrap: "anywhere" }}>
                    <Typography variant="body2">{e.resourceName}</Typography>
                  </TableCell>
                )}
                <TableCell>{AUDIT_TEXTS.actionLabels[e.action]}</TableCell>
                <TableCell>
                  <AuditChanges entry={e} />
                </TableCell>
              </TableRow>
            ))}
          </TableBody>
        </Table>
      </TableContainer>
      <TablePagination
        component="div"
        count={p.total}
        page={p.page}
        onPageChange={(_, page) => p.onPage(page)}
        rowsPerPage={AUDIT_PAGE_SIZE}
        rowsPerPageOptions={[]}
      />
    </Paper>
  );
}
