import CloseIcon from "@mui/icons-material/Close";
import ShowChartIcon from "@mui/icons-material/ShowChart";
import GroupIcon from "@mui/icons-material/WorkspacesOutlined";
import { Box, IconButton, List, ListItem, ListItemIcon, ListItemText, Typography } from "@mui/material";
import type { TSelectedItem } from "../../../signals/signal-tree";
import { SIGNALS_TAB_TEXT } from "./signals-text";

/**
 * The 'Selected Items' preview (requirements.md monitor-forms §2 "Signals tab"): the chosen signals and groups, each with a
 * delete control unless the form is read-only; under the title the rule, or the error once shown.
 */
export function SelectedItems(p: {
  items: TSelectedItem[];
  readOnly: boolean;
  hint: string;
  error: string | undefined;
  onRemove: (item: TSelectedItem) => void;
}) {
  return (
    <Box
      component="section"
      aria-labelledby="signals-selected-items"
      sx={{ display: "flex", flexDirection: "column", minHeight: 0, minWidth: 0 }}
    >
      <Typography id="signals-selected-items" variant="subtitle2" component="h3">
        {SIGNALS_TAB_TEXT.selectedItems} ({p.items.length})
      </Typography>
      {p.error ? (
        <Typography variant="caption" color="error" role="alert">
          {p.error}
        </Typography>
      ) : (
        !p.readOnly && (
          <Typography variant="caption" color="text.secondary">
            {p.hint}
          </Typography>
        )
      )}
      {p.items.length === 0 ? (
        <Typography variant="body2" color="text.secondary" sx={{ mt: 2 }}>
          {SIGNALS_TAB_TEXT.noneSelected}
        </Typography>
      ) : (
        <Box sx={{ flex: "1 1 0", minHeight: 0, position: "relative", mt: 1 }}>
          <List
            dense
            aria-label={SIGNALS_TAB_TEXT.selectedItems}
            sx={{ position: "absolute", inset: 0, overflow: "auto", py: 0 }}
          >
            {p.items.map((item) => (
              <ListItem
                key={`${item.kind}:${item.id}`}
                disableGutters
                secondaryAction={
                  p.readOnly ? undefined : (
                    <IconButton
                      edge="end"
                      size="small"
                      aria-label={SIGNALS_TAB_TEXT.remove(item.name)}
                      onClick={() => p.onRemove(item)}
                    >
                      <CloseIcon fontSize="small" />
                    </IconButton>
                  )
                }
              >
                <ListItemIcon sx={{ minWidth: 32 }}>
                  {item.kind === "group" ? (
                    <GroupIcon fontSize="small" />
                  ) : (
                    <ShowChartIcon fontSize="small" />
                  )}
                </ListItemIcon>
                <ListItemText
                  primary={item.name}
                  secondary={item.detail}
                  slotProps={{ primary: { noWrap: true }, secondary: { noWrap: true } }}
                />
              </ListItem>
            ))}
          </List>
        </Box>
      )}
    </Box>
  );
}
