import {
  DEFAULT_SETTINGS_SECTION,
  isSettingsSection,
  SETTINGS_MENU_TEXTS,
  SETTINGS_MESSAGES,
  settingsMenu,
  type TSettingsSection,
} from "@linewatch/contracts";
import MenuIcon from "@mui/icons-material/Menu";
import {
  Box,
  Button,
  CircularProgress,
  Drawer,
  List,
  ListItem,
  ListItemButton,
  ListItemText,
  ListSubheader,
  Paper,
  Typography,
  useMediaQuery,
  useTheme,
} from "@mui/material";
import { useEffect, useState } from "react";
import { Navigate, useSearchParams } from "react-router";
import { useFeatureFlags, useMe } from "../../shared/data/session/queries";
import { useTexts } from "../../shared/i18n/language";
import { NotAvailablePanel } from "./NotAvailablePanel";
import { prefetchSection, SECTION_PAGES } from "./sections";

export const SETTINGS_SECTION_STORAGE_KEY = "linewatch.settings.section";

function storedSection(): TSettingsSection | null {
  const stored = localStorage.getItem(SETTINGS_SECTION_STORAGE_KEY);
  return isSettingsSection(stored) ? stored : null;
}

/** The id of a menu group's title (an id has no spaces). */
const groupIdOf = (title: string) => `settings-group-${title.toLowerCase().replace(/[^a-z0-9]+/g, "-")}`;

/**
 * Settings: side menu (requirements.md settings §2.1) and the selected section's pane; the section is in the URL.
 * Below the md breakpoint (900 px: a tablet) the menu is a drawer opened from a button that names
 * the section, so the section has the page's width.
 */
export function SettingsPage() {
  const me = useMe().data;
  const narrow = useMediaQuery(useTheme().breakpoints.down("md"));
  const [menuOpen, setMenuOpen] = useState(false);
  const flagsQ = useFeatureFlags();
  const [params, setParams] = useSearchParams();
  const T = useTexts(SETTINGS_MESSAGES);
  const menuTexts = useTexts(SETTINGS_MENU_TEXTS);
  const fromUrl = params.get("section");
  const requested = isSettingsSection(fromUrl) ? fromUrl : (storedSection() ?? DEFAULT_SETTINGS_SECTION);

  const flags = flagsQ.data;
  const groups =
    me && flags
      ? settingsMenu({
          isAdministrator: me.isAdministrator,
          flags: flags.flags,
          etqOverride: flags.etqOverride,
          texts: menuTexts,
        })
      : [];
  const items = groups.flatMap((g) => g.items);
  const allowed = items.some((i) => i.section === requested);
  const section: TSettingsSection = allowed ? requested : DEFAULT_SETTINGS_SECTION;

  useEffect(() => {
    if (!flags) return;
    localStorage.setItem(SETTINGS_SECTION_STORAGE_KEY, section);
    if (params.get("section") !== section && !(requested === "ETQ_RELIANCE" && !allowed)) {
      setParams({ section }, { replace: true });
    }
  }, [flags, section, params, setParams, requested, allowed]);

  if (!flags || !me) return <CircularProgress />;
  // ETQ Reliance without its flag or override: back to the home route (requirements.md settings §2.3).
  if (requested === "ETQ_RELIANCE" && !allowed) return <Navigate to="/" replace />;

  const Page = SECTION_PAGES[section];
  const label = items.find((i) => i.section === section)?.label ?? section;
  const pick = (next: TSettingsSection) => {
    setParams({ section: next });
    setMenuOpen(false);
  };
  const menu = (
    <Paper
      component="nav"
      aria-label={T.title}
      sx={{ width: narrow ? 280 : { md: 220, xl: 260 }, flexShrink: 0 }}
      variant="outlined"
    >
      <Typography variant="h6" component={narrow ? "h2" : "h1"} sx={{ px: 2, pt: 2 }}>
        {T.title}
      </Typography>
      {groups.map((g) => (
        // Each group a list named by its title; each item a list item holding its button.
        <List
          key={g.title}
          dense
          aria-labelledby={groupIdOf(g.title)}
          subheader={
            <ListSubheader id={groupIdOf(g.title)} sx={{ bgcolor: "transparent", lineHeight: "32px" }}>
              {g.title}
            </ListSubheader>
          }
        >
          {g.items.map((i) => (
            <ListItem key={i.section} disablePadding>
              <ListItemButton
                selected={i.section === section}
                aria-current={i.section === section ? "page" : undefined}
                onClick={() => pick(i.section)}
                onPointerEnter={() => prefetchSection(i.section)}
                onFocus={() => prefetchSection(i.section)}
              >
                <ListItemText primary={i.label} />
              </ListItemButton>
            </ListItem>
          ))}
        </List>
      ))}
    </Paper>
  );
  return (
    <Box
      sx={{
        display: "flex",
        gap: narrow ? 2 : 3,
        alignItems: narrow ? "stretch" : "flex-start",
        flexDirection: narrow ? "column" : "row",
      }}
    >
      {narrow ? (
        <Box sx={{ display: "flex", alignItems: "center", gap: 2 }}>
          <Typography variant="h6" component="h1">
            {T.title}
          </Typography>
          <Button
            variant="outlined"
            startIcon={<MenuIcon />}
            onClick={() => setMenuOpen(true)}
            aria-haspopup="dialog"
            aria-expanded={menuOpen}
          >
            {label}
          </Button>
          <Drawer
            anchor="left"
            open={menuOpen}
            onClose={() => setMenuOpen(false)}
            slotProps={{ paper: { role: "dialog", "aria-label": T.sectionsMenu } }}
          >
            {menu}
          </Drawer>
        </Box>
      ) : (
        menu
      )}
      <Box sx={{ flexGrow: 1, minWidth: 0 }}>{Page ? <Page /> : <NotAvailablePanel title={label} />}</Box>
    </Box>
  );
}
