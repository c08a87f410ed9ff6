import {
  DRAWER,
  FEEDER_DRAWER_WIDTH,
  LINE_MANAGEMENT_TEXTS,
  type TFeederLineInfo,
} from "@linewatch/contracts";
import CloseIcon from "@mui/icons-material/Close";
import {
  Box,
  Button,
  Checkbox,
  Chip,
  Divider,
  Drawer,
  FormControlLabel,
  IconButton,
  List,
  ListItem,
  Stack,
  TextField,
  Typography,
} from "@mui/material";
import { useId, useMemo, useState } from "react";
import { useTexts } from "../../../../shared/i18n/language";
import { useDiscardGuard } from "../../../../shared/ui/settings/useDiscardGuard";
import { HistoryButton } from "../../../audit-log/components/HistoryButton";
import { feederTree, sameIds } from "../feeder-lines";

export type FeederLinesDrawerProps = {
  open: boolean;
  /** The line being configured: shown, but it cannot feed itself. */
  lineId: string;
  info: TFeederLineInfo;
  /** The feeders chosen so far in the line editor. */
  selected: readonly string[];
  onCancel: () => void;
  onSave: (ids: string[]) => void;
};

/**
 * The 'Feeder Lines' drawer (700 px, requirements.md settings §2.9): a search, the customer's plants with
 * their lines to tick, and the ticked ones listed under 'lines will be fed in'. Cancel or closing
 * with changes asks 'Discard Changes?'; Save Changes hands the choice to the line editor.
 */
export function FeederLinesDrawer(p: FeederLinesDrawerProps) {
  // The drawer's paper is the dialog, named by the form's title.
  const titleId = useId();
  return (
    <Drawer
      anchor="right"
      open={p.open}
      onClose={() => {}}
      transitionDuration={{ enter: DRAWER.enterMs, exit: DRAWER.exitMs }}
      slotProps={{
        paper: {
          role: "dialog",
          "aria-labelledby": titleId,
          sx: { width: FEEDER_DRAWER_WIDTH, maxWidth: "100vw" },
        },
      }}
    >
      {p.open && <FeederLinesForm {...p} titleId={titleId} />}
    </Drawer>
  );
}

function FeederLinesForm(p: FeederLinesDrawerProps & { titleId: string }) {
  const T = useTexts(LINE_MANAGEMENT_TEXTS);
  const { titleId } = p;
  const [picked, setPicked] = useState<string[]>([...p.selected]);
  const [search, setSearch] = useState("");
  const dirty = !sameIds(picked, p.selected);
  const discard = useDiscardGuard(dirty);
  const tree = useMemo(() => feederTree(p.info, search), [p.info, search]);
  const names = useMemo(() => {
    const m = new Map<string, string>();
    for (const pl of p.info.plants)
      for (const l of pl.lines) m.set(l.id, `${pl.name} / ${l.friendlyName || l.name}`);
    return m;
  }, [p.info]);
  const toggle = (id: string) => setPicked((s) => (s.includes(id) ? s.filter((x) => x !== id) : [...s, id]));

  return (
    <Stack sx={{ height: "100%" }} onKeyDown={(e) => e.key === "Escape" && discard.guard(p.onCancel)}>
      <Stack direction="row" sx={{ px: 2, py: 1.5, alignItems: "center" }}>
        <Typography id={titleId} variant="h6" component="h2" sx={{ flexGrow: 1 }}>
          {T.feederLines}
        </Typography>
        <HistoryButton resource="feeder_line" items={[{ id: p.lineId, name: names.get(p.lineId) ?? "" }]} />
        <IconButton aria-label={T.close} onClick={() => discard.guard(p.onCancel)}>
          <CloseIcon />
        </IconButton>
      </Stack>
      <Divider />
      <Stack direction="row" sx={{ flexGrow: 1, minHeight: 0 }}>
        <Box sx={{ flex: 1, overflow: "auto", p: 2, borderRight: 1, borderColor: "divider" }}>
          <TextField
            size="small"
            fullWidth
            label={T.feederSearch}
            value={search}
            onChange={(e) => setSearch(e.target.value)}
            sx={{ mb: 1 }}
          />
          <List dense aria-label={T.feederLines}>
            {tree.map((plant) => (
              <li key={plant.id}>
                <Typography variant="subtitle2" sx={{ px: 1, pt: 1 }}>
                  {plant.name}
                </Typography>
                <List dense disablePadding aria-label={plant.name}>
                  {plant.lines.map((l) => {
                    const self = l.id === p.lineId;
                    return (
                      // A labelled checkbox per line, not a checkbox inside a button (axe:
                      // nested-interactive): Tab reaches each, Space toggles, the label clicks.
                      <ListItem key={l.id} disablePadding sx={{ pl: 3 }}>
                        <FormControlLabel
                          disabled={self}
                          sx={{ m: 0, width: "100%" }}
                          control={
                            <Checkbox
                              size="small"
                              checked={picked.includes(l.id)}
                              onChange={() => toggle(l.id)}
                              slotProps={{ input: { "aria-label": `${plant.name} / ${l.label}` } }}
                            />
                          }
                          label={<Typography variant="body2">{l.label}</Typography>}
                        />
                      </ListItem>
                    );
                  })}
                </List>
              </li>
            ))}
          </List>
        </Box>
        <Box sx={{ flex: 1, overflow: "auto", p: 2 }}>
          <Typography variant="caption" color="text.secondary" component="p" id={`${titleId}-picked`}>
            {T.feederSelectedCaption}
          </Typography>
          <Stack
            component="ul"
            aria-labelledby={`${titleId}-picked`}
            spacing={1}
            sx={{ listStyle: "none", p: 0 }}
          >
            {picked.map((id) => (
              <li key={id}>
                <Chip label={names.get(id) ?? id} onDelete={() => toggle(id)} />
              </li>
            ))}
          </Stack>
        </Box>
      </Stack>
      <Divider />
      <Stack direction="row" spacing={1} sx={{ p: 2, justifyContent: "flex-end" }}>
        <Button onClick={() => discard.guard(p.onCancel)}>{T.cancel}</Button>
        <Button variant="contained" disabled={!dirty} onClick={() => p.onSave(picked)}>
          {T.saveChanges}
        </Button>
      </Stack>
      {discard.dialog}
    </Stack>
  );
}
