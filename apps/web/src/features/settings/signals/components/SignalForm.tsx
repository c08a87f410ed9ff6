import {
  QUALITY_CHARACTERISTIC_LABELS,
  QUALITY_CHARACTERISTICS,
  SIGNAL_MANAGEMENT_TEXT as TEXT,
  type TFeatureFlags,
  type TSignal,
  type TSignalEntityType,
} from "@linewatch/contracts";
import {
  Box,
  Button,
  Divider,
  FormControl,
  FormControlLabel,
  InputLabel,
  MenuItem,
  Radio,
  RadioGroup,
  Select,
  Stack,
  Switch,
  TextField,
  Typography,
} from "@mui/material";
import { HistoryButton } from "../../../audit-log/components/HistoryButton";
import { commonValue, entityTypeOptions, showsDistribution, showsLabeling } from "../signal-management.form";
import { FriendlyNameField } from "./FriendlyNameField";
import { LabelingSection } from "./LabelingSection";

const MIXED = "mixed";

export type SignalFormProps = {
  selected: TSignal[];
  all: TSignal[];
  flags: Partial<TFeatureFlags>;
  isSaving: boolean;
  classificationError: string | null;
  onActiveChange: (active: boolean) => void;
  onQualityChange: (q: (typeof QUALITY_CHARACTERISTICS)[number]) => void;
  onFriendlyNameSave: (name: string) => Promise<unknown>;
  onEntityTypeChoose: (type: TSignalEntityType) => void;
  onSingleSideChange: (side: "LOWER" | "UPPER" | null) => void;
  onEditAssociations: () => void;
  onEditClassifications: () => void;
  onShowSummary: () => void;
  onClearSelection: () => void;
};

/**
 * The Signal form (requirements.md settings §2.8, §4 "Signal form"): one or several signals; values that
 * differ show 'Mixed' (which cannot be chosen, §5 "Mixed values"); with every selected signal off
 * the fields below the status are dimmed and disabled.
 */
export function SignalForm(p: SignalFormProps) {
  const { selected } = p;
  const active = commonValue(selected, (s) => s.isSignalActive);
  const name = commonValue(selected, (s) => s.name);
  const friendly = commonValue(selected, (s) => s.friendlyName);
  const type = commonValue(selected, (s) => s.entityType);
  const quality = commonValue(selected, (s) => s.qualityCharacteristic);
  const side = commonValue(selected, (s) => s.singleSide);
  const isOff = !active.mixed && active.value === false;
  const disabled = isOff || p.isSaving;
  const single = selected.length === 1;

  return (
    <Stack spacing={2} sx={{ p: 2 }} component="section" aria-label="Signal form">
      <Stack direction="row" spacing={1} sx={{ justifyContent: "flex-end" }}>
        <HistoryButton
          resource="signal"
          itemLabel={TEXT.name}
          items={selected.map((s) => ({ id: s.id, name: s.friendlyName || s.name }))}
        />
        <Button onClick={p.onShowSummary}>{TEXT.selectionSummary(selected.length)}</Button>
        <Button onClick={p.onClearSelection}>{TEXT.clearSelection}</Button>
      </Stack>

      <Stack direction="row" spacing={2} sx={{ alignItems: "center" }}>
        <FormControlLabel
          control={
            <Switch
              checked={active.value === true}
              disabled={p.isSaving}
              onChange={() => p.onActiveChange(active.mixed ? true : !active.value)}
              slotProps={{ input: { "aria-label": TEXT.signalStatus } }}
            />
          }
          label={`${TEXT.signalStatus}: ${active.mixed ? TEXT.mixed : active.value ? TEXT.on : TEXT.off}`}
        />
      </Stack>

      <Box sx={{ opacity: isOff ? 0.5 : 1 }} aria-disabled={isOff || undefined}>
        <Stack spacing={2}>
          <TextField
            size="small"
            label={TEXT.name}
            value={name.mixed ? TEXT.mixed : (name.value ?? "")}
            disabled={disabled}
            slotProps={{ input: { readOnly: true } }}
          />
          <FriendlyNameField
            key={single ? selected[0]?.id : "many"}
            value={friendly.value ?? null}
            mixed={!single}
            disabled={disabled}
            onSave={p.onFriendlyNameSave}
          />
          <FormControl size="small" disabled={disabled}>
            <InputLabel id="entity-type-label">{TEXT.entityType}</InputLabel>
            <Select
              labelId="entity-type-label"
              label={TEXT.entityType}
              value={type.mixed ? MIXED : (type.value ?? "")}
              onChange={(e) => {
                const v = e.target.value;
                if (v !== MIXED && v !== type.value) p.onEntityTypeChoose(v as TSignalEntityType);
              }}
            >
              <MenuItem value={MIXED} disabled>
                {TEXT.mixed}
              </MenuItem>
              {entityTypeOptions(selected, p.flags).map((o) => (
                <MenuItem key={o.type} value={o.type} disabled={o.disabled}>
                  {o.label}
                </MenuItem>
              ))}
            </Select>
          </FormControl>

          {showsDistribution(selected, p.flags) ? (
            <Box component="fieldset" sx={{ border: 0, p: 0, m: 0 }}>
              <Typography variant="subtitle2" component="legend">
                {TEXT.distribution}
              </Typography>
              <FormControlLabel
                control={
                  <Switch
                    checked={!side.mixed && side.value != null}
                    disabled={disabled}
                    onChange={(e) => p.onSingleSideChange(e.target.checked ? "LOWER" : null)}
                  />
                }
                label={side.mixed ? `${TEXT.singleSided}: ${TEXT.mixed}` : TEXT.singleSided}
              />
              <RadioGroup
                row
                value={side.mixed ? "" : (side.value ?? "")}
                onChange={(e) => p.onSingleSideChange(e.target.value as "LOWER" | "UPPER")}
              >
                <FormControlLabel
                  value="LOWER"
                  control={<Radio />}
                  label={TEXT.lowerBoundary}
                  disabled={disabled || side.mixed || side.value == null}
                />
                <FormControlLabel
                  value="UPPER"
                  control={<Radio />}
                  label={TEXT.upperBoundary}
                  disabled={disabled || side.mixed || side.value == null}
                />
              </RadioGroup>
            </Box>
          ) : null}

          {showsLabeling(selected) ? (
            <>
              <Divider />
              <Typography variant="subtitle1">{TEXT.labeling}</Typography>
              <FormControl size="small" disabled={disabled}>
                <InputLabel id="quality-label">{TEXT.qualityCharacteristic}</InputLabel>
                <Select
                  labelId="quality-label"
                  label={TEXT.qualityCharacteristic}
                  value={quality.mixed ? MIXED : (quality.value ?? "NONE")}
                  onChange={(e) => {
                    const v = e.target.value;
                    if (v !== MIXED) p.onQualityChange(v as (typeof QUALITY_CHARACTERISTICS)[number]);
                  }}
                >
                  <MenuItem value={MIXED} disabled>
                    {TEXT.mixed}
                  </MenuItem>
                  {QUALITY_CHARACTERISTICS.map((q) => (
                    <MenuItem key={q} value={q}>
                      {QUALITY_CHARACTERISTIC_LABELS[q]}
                    </MenuItem>
                  ))}
                </Select>
              </FormControl>
              <LabelingSection
                selected={selected}
                all={p.all}
                disabled={disabled}
                classificationError={p.classificationError}
                onEditAssociations={p.onEditAssociations}
                onEditClassifications={p.onEditClassifications}
              />
            </>
          ) : null}
        </Stack>
      </Box>
    </Stack>
  );
}
