import { SIGNAL_MANAGEMENT_TEXT as TEXT } from "@linewatch/contracts";
import AddCircleOutlineIcon from "@mui/icons-material/AddCircleOutlineOutlined";
import RemoveCircleOutlineIcon from "@mui/icons-material/RemoveCircleOutlineOutlined";
import {
  Button,
  Dialog,
  DialogActions,
  DialogContent,
  DialogTitle,
  List,
  ListItem,
  ListItemIcon,
  ListItemText,
  Stack,
  Step,
  StepLabel,
  Stepper,
  Typography,
} from "@mui/material";
import { useState } from "react";
import type { TAssociationPlan } from "../associations";
import { ROLE_LABELS } from "../signal-management.form";
import { CapFormulaList, type TCapFormulasState } from "./CapFormulaList";

function Legend() {
  return (
    <Stack direction="row" spacing={2} aria-label="Legend" sx={{ mb: 1 }}>
      <Stack direction="row" spacing={0.5} sx={{ alignItems: "center" }}>
        <AddCircleOutlineIcon color="success" fontSize="small" />
        <Typography variant="caption">{TEXT.create}</Typography>
      </Stack>
      <Stack direction="row" spacing={0.5} sx={{ alignItems: "center" }}>
        <RemoveCircleOutlineIcon color="error" fontSize="small" />
        <Typography variant="caption">{TEXT.delete}</Typography>
      </Stack>
    </Stack>
  );
}

/**
 * The two-step confirmation (requirements.md settings §4 "Association editing"): Entity Changes, then Association
 * Changes; Next, Back and Cancel; the last button 'I understand. Save this configuration.'
 */
export function AssociationConfirmDialog(p: {
  open: boolean;
  plan: TAssociationPlan | null;
  /** Cap limit formulas that use a signal the configuration converts (shown with the entity changes). */
  capFormulas: TCapFormulasState;
  isSaving: boolean;
  onSave: () => void;
  onCancel: () => void;
}) {
  const [step, setStep] = useState(0);
  const close = () => {
    setStep(0);
    p.onCancel();
  };
  const plan = p.plan;
  return (
    <Dialog
      open={p.open}
      onClose={p.isSaving ? undefined : close}
      maxWidth="sm"
      fullWidth
      slotProps={{ transition: { onExited: () => setStep(0) } }}
    >
      <DialogTitle>{step === 0 ? TEXT.entityChanges : TEXT.associationChanges}</DialogTitle>
      <DialogContent>
        <Stepper activeStep={step} sx={{ mb: 2 }}>
          <Step>
            <StepLabel>{TEXT.entityChanges}</StepLabel>
          </Step>
          <Step>
            <StepLabel>{TEXT.associationChanges}</StepLabel>
          </Step>
        </Stepper>
        <Legend />
        {step === 0 ? (
          plan && plan.entityChanges.length > 0 ? (
            <>
              <List dense aria-label={TEXT.entityChanges}>
                {plan.entityChanges.map((c) => (
                  <ListItem key={c.signal}>
                    <ListItemText
                      primary={c.signal}
                      secondary={`${c.from} → ${c.to}${c.capLimits ? ` · ${TEXT.capLimitsUnused}` : ""}`}
                    />
                  </ListItem>
                ))}
              </List>
              <CapFormulaList state={p.capFormulas} />
            </>
          ) : (
            <Typography variant="body2" color="text.secondary">
              {TEXT.noEntityChanges}
            </Typography>
          )
        ) : plan && plan.associationChanges.length > 0 ? (
          <List dense aria-label={TEXT.associationChanges}>
            {plan.associationChanges.map((c) => (
              <ListItem key={`${c.kind}|${c.measurement}|${c.role}|${c.signal}`}>
                <ListItemIcon sx={{ minWidth: 32 }}>
                  {c.kind === "create" ? (
                    <AddCircleOutlineIcon color="success" fontSize="small" titleAccess={TEXT.create} />
                  ) : (
                    <RemoveCircleOutlineIcon color="error" fontSize="small" titleAccess={TEXT.delete} />
                  )}
                </ListItemIcon>
                <ListItemText
                  primary={`${c.measurement} — ${ROLE_LABELS[c.role]}: ${c.signal}`}
                  secondary={c.kind === "create" ? TEXT.create : TEXT.delete}
                />
              </ListItem>
            ))}
          </List>
        ) : (
          <Typography variant="body2" color="text.secondary">
            {TEXT.noAssociationChanges}
          </Typography>
        )}
      </DialogContent>
      <DialogActions>
        <Button onClick={close} disabled={p.isSaving}>
          {TEXT.cancel}
        </Button>
        {step === 1 ? (
          <Button onClick={() => setStep(0)} disabled={p.isSaving}>
            {TEXT.back}
          </Button>
        ) : null}
        {step === 0 ? (
          <Button variant="contained" onClick={() => setStep(1)} disabled={p.capFormulas.isLoading}>
            {TEXT.next}
          </Button>
        ) : (
          <Button variant="contained" color="warning" onClick={p.onSave} disabled={p.isSaving}>
            {p.isSaving ? TEXT.saving : TEXT.saveConfiguration}
          </Button>
        )}
      </DialogActions>
    </Dialog>
  );
}
