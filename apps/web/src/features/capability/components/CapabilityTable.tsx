import { CAPABILITY_ALL_MODELS, CAPABILITY_MESSAGES as M, type TCapabilityModel } from "@linewatch/contracts";
import { Table, TableBody, TableCell, TableHead, TableRow, Typography } from "@mui/material";
import { fmt } from "../capability.view";

type Index = "cp" | "cpk" | "pp" | "ppk";
const INDICES: Index[] = ["cp", "cpk", "pp", "ppk"];

/** An index and its 95 % interval: "1.23 [1.01, 1.45]". */
function IndexCell({ row, index }: { row: TCapabilityModel; index: Index }) {
  const value = row[index];
  const interval = row.intervals?.[index];
  return (
    <TableCell align="right" sx={{ whiteSpace: "nowrap" }}>
      {fmt(value)}
      {interval && (
        <Typography component="span" variant="caption" color="text.secondary">
          {` [${fmt(interval[0])}, ${fmt(interval[1])}]`}
        </Typography>
      )}
    </TableCell>
  );
}

/** Cp, Cpk, Pp, Ppk with 95 % intervals and n per model number ('*' = every record first). */
export function CapabilityTable({ models }: { models: readonly TCapabilityModel[] }) {
  const name = (m: string | null) => (m === CAPABILITY_ALL_MODELS ? M.allModels : (m ?? M.noModel));
  return (
    <Table size="small" aria-label={M.table}>
      <TableHead>
        <TableRow>
          <TableCell>{M.columns.model}</TableCell>
          <TableCell align="right">{M.columns.n}</TableCell>
          {INDICES.map((i) => (
            <TableCell key={i} align="right">
              {M.columns[i]}
            </TableCell>
          ))}
          <TableCell>{M.columns.note}</TableCell>
        </TableRow>
      </TableHead>
      <TableBody>
        {models.map((row) => (
          <TableRow key={row.modelNumber ?? "none"}>
            <TableCell component="th" scope="row">
              {name(row.modelNumber)}
            </TableCell>
            <TableCell align="right">{row.n}</TableCell>
            {INDICES.map((i) => (
              <IndexCell key={i} row={row} index={i} />
            ))}
            <TableCell>{row.note ?? ""}</TableCell>
          </TableRow>
        ))}
      </TableBody>
    </Table>
  );
}
