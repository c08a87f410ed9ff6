import { RESULT_VALUES, SIGNAL_MANAGEMENT_TEXT as TEXT, type TResultValue } from "@linewatch/contracts";
import DeleteOutlineIcon from "@mui/icons-material/DeleteOutlined";
import {
  Button,
  IconButton,
  MenuItem,
  Table,
  TableBody,
  TableCell,
  TableHead,
  TableRow,
  TextField,
  Typography,
} from "@mui/material";
import { sortRows, type TClassRow } from "../classifications";

/**
 * One table of classifications (requirements.md settings §2.8): Value (required; editable on new rows only),
 * Result (pass / fail / other), Failure Mode, and actions: Delete on new rows, 'Make Common' on a
 * unique row when several signals are open.
 */
export function ClassificationTable(p: {
  label: string;
  rows: TClassRow[];
  emptyText: string;
  errorOf: (rowId: string) => string | undefined;
  onChange: (rowId: string, patch: Partial<Pick<TClassRow, "value" | "result" | "failureMode">>) => void;
  onDelete: (rowId: string) => void;
  onMakeCommon?: (rowId: string) => void;
}) {
  const rows = sortRows(p.rows);
  return (
    <Table size="small" aria-label={p.label}>
      <TableHead>
        <TableRow>
          <TableCell>{TEXT.value} *</TableCell>
          <TableCell sx={{ width: 120 }}>{TEXT.result}</TableCell>
          <TableCell>{TEXT.failureMode}</TableCell>
          <TableCell sx={{ width: 130 }}>{TEXT.actions}</TableCell>
        </TableRow>
      </TableHead>
      <TableBody>
        {rows.length === 0 ? (
          <TableRow>
            <TableCell colSpan={4}>
              <Typography variant="body2" color="text.secondary">
                {p.emptyText}
              </Typography>
            </TableCell>
          </TableRow>
        ) : (
          rows.map((r, i) => {
            const error = p.errorOf(r.id);
            return (
              <TableRow key={r.id}>
                <TableCell>
                  {r.isNew ? (
                    <TextField
                      size="small"
                      required
                      autoFocus={i === 0}
                      value={r.value}
                      error={!!error}
                      helperText={error}
                      onChange={(e) => p.onChange(r.id, { value: e.target.value })}
                      slotProps={{ htmlInput: { "aria-label": TEXT.value } }}
                    />
                  ) : (
                    r.value
                  )}
                </TableCell>
                <TableCell>
                  <TextField
                    select
                    size="small"
                    value={r.result}
                    onChange={(e) => p.onChange(r.id, { result: e.target.value as TResultValue })}
                    slotProps={{ htmlInput: { "aria-label": `${TEXT.result} ${r.value}` } }}
                    fullWidth
                  >
                    {RESULT_VALUES.map((v) => (
                      <MenuItem key={v} value={v}>
                        {TEXT.resultLabels[v]}
                      </MenuItem>
                    ))}
                  </TextField>
                </TableCell>
                <TableCell>
                  <TextField
                    size="small"
                    value={r.failureMode}
                    placeholder={TEXT.failureModePlaceholder}
                    onChange={(e) => p.onChange(r.id, { failureMode: e.target.value })}
                    slotProps={{ htmlInput: { "aria-label": `${TEXT.failureMode} ${r.value}` } }}
                    fullWidth
                  />
                </TableCell>
                <TableCell>
                  {p.onMakeCommon ? (
                    <Button size="small" onClick={() => p.onMakeCommon?.(r.id)} disabled={!!error}>
                      {TEXT.makeCommon}
                    </Button>
                  ) : null}
                  {r.isNew ? (
                    <IconButton
                      size="small"
                      aria-label={`${TEXT.delete} ${r.value}`}
                      onClick={() => p.onDelete(r.id)}
                    >
                      <DeleteOutlineIcon fontSize="small" />
                    </IconButton>
                  ) : null}
                </TableCell>
              </TableRow>
            );
          })
        )}
      </TableBody>
    </Table>
  );
}
