import {
  MONITOR_FORM_TEXTS,
  MONITOR_MESSAGES,
  type TMonitorFormValues,
  type TPartAttribute,
  type TPartAttributeSelection,
} from "@linewatch/contracts";
import AddIcon from "@mui/icons-material/Add";
import DeleteOutlineIcon from "@mui/icons-material/DeleteOutlined";
import {
  Alert,
  Autocomplete,
  Box,
  Button,
  CircularProgress,
  FormHelperText,
  IconButton,
  MenuItem,
  TextField,
  Typography,
} from "@mui/material";
import { useId } from "react";
import { useFormContext, useWatch } from "react-hook-form";
import { usePartAttributes } from "../../api/queries";
import { useFieldError, useMonitorFormCtx } from "../MonitorFormContext";
import { missingPartAttributes } from "./filters.logic";

const T = MONITOR_FORM_TEXTS.partAttributes;

/**
 * Part attributes (requirements.md monitor-forms §2, §5 "Part attributes"): rows of an attribute of the line and the values
 * to keep. Shown when the line has part attributes (or the monitor already filters on some).
 */
export function PartAttributesSection() {
  const ctx = useMonitorFormCtx();
  const { control, setValue } = useFormContext<TMonitorFormValues>();
  const [lineId, rows] = useWatch({ control, name: ["line_uuid", "part_attributes"] });
  const q = usePartAttributes(lineId || null);
  const sectionError = useFieldError("part_attributes");
  const headingId = useId();

  if (q.isLoading)
    return (
      <Box sx={{ display: "flex", gap: 1, alignItems: "center" }}>
        <CircularProgress size={16} aria-label={T.loading} />
        <Typography variant="body2" color="text.secondary">
          {T.loadingText}
        </Typography>
      </Box>
    );
  if (q.error)
    return (
      <Alert
        severity="error"
        action={
          <Button color="inherit" size="small" onClick={() => q.refetch()}>
            {MONITOR_FORM_TEXTS.retry}
          </Button>
        }
      >
        {T.loadError}
      </Alert>
    );
  const attributes = q.data ?? [];
  if (attributes.length === 0 && rows.length === 0) return null;

  // Shown as soon as it is known, not only once validation is on: the row cannot be edited as is.
  const notFound =
    sectionError ??
    (missingPartAttributes(rows, attributes).length ? MONITOR_MESSAGES.partAttributesNotFound : null);
  const update = (next: TPartAttributeSelection[]) =>
    setValue("part_attributes", next, { shouldDirty: true });
  const used = new Set(rows.map((r) => r.attributeUuid));

  return (
    <Box component="section" aria-labelledby={headingId} sx={{ display: "grid", gap: 1.5 }}>
      <Typography id={headingId} variant="subtitle1" component="h3">
        {T.title}
      </Typography>
      {rows.map((row, i) => (
        <PartAttributeRow
          // biome-ignore lint/suspicious/noArrayIndexKey: rows are positional and have no id; a key by attribute would remount (and unfocus) a row whose attribute is being changed.
          key={i}
          index={i}
          row={row}
          attributes={attributes}
          usedElsewhere={used}
          onChange={(r) => update(rows.map((x, j) => (j === i ? r : x)))}
          onRemove={() => update(rows.filter((_, j) => j !== i))}
        />
      ))}
      {notFound && <FormHelperText error>{notFound}</FormHelperText>}
      {!ctx.readOnly && attributes.some((a) => !used.has(a.attributeUuid)) && (
        <Box>
          <Button
            startIcon={<AddIcon />}
            onClick={() => update([...rows, { attributeUuid: "", selectedAttributeValues: [] }])}
          >
            {T.add}
          </Button>
        </Box>
      )}
    </Box>
  );
}

function PartAttributeRow(p: {
  index: number;
  row: TPartAttributeSelection;
  attributes: TPartAttribute[];
  usedElsewhere: Set<string>;
  onChange: (row: TPartAttributeSelection) => void;
  onRemove: () => void;
}) {
  const ctx = useMonitorFormCtx();
  const error = useFieldError(`part_attributes.${p.index}`);
  const attribute = p.attributes.find((a) => a.attributeUuid === p.row.attributeUuid);
  const n = p.index + 1;

  return (
    <Box>
      <Box sx={{ display: "grid", gridTemplateColumns: "minmax(160px, 1fr) 2fr auto", gap: 1 }}>
        <TextField
          select
          label={T.attribute(n)}
          size="small"
          value={p.row.attributeUuid}
          error={!!error && p.row.attributeUuid === ""}
          onChange={(e) => p.onChange({ attributeUuid: e.target.value, selectedAttributeValues: [] })}
          slotProps={{ input: { readOnly: ctx.readOnly } }}
        >
          {p.row.attributeUuid !== "" && !attribute && (
            <MenuItem value={p.row.attributeUuid} disabled>
              {T.unknown}
            </MenuItem>
          )}
          {p.attributes.map((a) => (
            <MenuItem
              key={a.attributeUuid}
              value={a.attributeUuid}
              disabled={a.attributeUuid !== p.row.attributeUuid && p.usedElsewhere.has(a.attributeUuid)}
            >
              {a.attributeName} ({a.stationName})
            </MenuItem>
          ))}
        </TextField>
        <Autocomplete
          multiple
          size="small"
          options={attribute?.attributeValues ?? []}
          value={p.row.selectedAttributeValues}
          onChange={(_e, v) => p.onChange({ ...p.row, selectedAttributeValues: v })}
          readOnly={ctx.readOnly}
          disabled={!attribute && !ctx.readOnly}
          disableCloseOnSelect
          filterSelectedOptions
          renderInput={(params) => (
            <TextField
              {...params}
              label={T.values(n)}
              error={!!error && p.row.selectedAttributeValues.length === 0}
            />
          )}
        />
        {!ctx.readOnly && (
          <IconButton aria-label={T.remove(n)} onClick={p.onRemove}>
            <DeleteOutlineIcon />
          </IconButton>
        )}
      </Box>
      {error && <FormHelperText error>{error}</FormHelperText>}
    </Box>
  );
}
