import { SIGNAL_MANAGEMENT_TEXT as TEXT, type TSignal } from "@linewatch/contracts";
import { Button, List, ListItem, ListItemText, Stack, Typography } from "@mui/material";
import { associationView } from "../signal-management.form";
import { ASSOCIABLE_TYPES } from "../signal-management.tree";

/** Labeling's Associations and Result Classifications (requirements.md settings §2.8, §5, §8 view states). */
export function LabelingSection(p: {
  selected: TSignal[];
  all: TSignal[];
  disabled: boolean;
  classificationError: string | null;
  onEditAssociations: () => void;
  onEditClassifications: () => void;
}) {
  const view = associationView(p.selected, p.all);
  const canAssociate = p.selected.every((s) => ASSOCIABLE_TYPES.has(s.entityType));
  return (
    <Stack spacing={2}>
      <Stack spacing={1} component="section" aria-label={TEXT.associations}>
        <Stack direction="row" sx={{ alignItems: "center", justifyContent: "space-between" }}>
          <Typography variant="subtitle2">{TEXT.associations}</Typography>
          <Button size="small" disabled={p.disabled || !canAssociate} onClick={p.onEditAssociations}>
            {TEXT.editAssociations}
          </Button>
        </Stack>
        {view.kind === "message" ? (
          <Typography variant="body2" color="text.secondary">
            {view.text}
          </Typography>
        ) : (
          <List dense disablePadding>
            {view.items.map((i) => (
              <ListItem key={`${i.role}|${i.name}`} disableGutters>
                <ListItemText primary={i.name} secondary={i.role} />
              </ListItem>
            ))}
          </List>
        )}
      </Stack>
      <Stack spacing={1} component="section" aria-label={TEXT.resultClassifications}>
        <Stack direction="row" sx={{ alignItems: "center", justifyContent: "space-between" }}>
          <Typography variant="subtitle2">{TEXT.resultClassifications}</Typography>
          <Button
            size="small"
            disabled={p.disabled || p.classificationError !== null}
            onClick={p.onEditClassifications}
          >
            {TEXT.editResultClassifications}
          </Button>
        </Stack>
        {p.classificationError ? (
          <Typography variant="body2" color="text.secondary">
            {p.classificationError}
          </Typography>
        ) : null}
      </Stack>
    </Stack>
  );
}
