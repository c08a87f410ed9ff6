import { lineLabel, SHELL_TEXTS } from "@linewatch/contracts";
import { AppBar, Box, Button, MenuItem, TextField, Toolbar, Typography } from "@mui/material";
import { Outlet, Link as RouterLink, useLocation, useNavigate } from "react-router";
import { usePlantLine } from "../shared/data/plants/plant-line";
import { useTexts } from "../shared/i18n/language";
import { NavigationProgress } from "./NavigationProgress";
import { UserMenu } from "./UserMenu";

/** Top bar: product name, plant and line selectors, the plant's time zone, navigation and the user menu. */
export function AppShell() {
  const { plants, plant, lines, line, setPlantId, setLineId } = usePlantLine();
  const { pathname } = useLocation();
  const T = useTexts(SHELL_TEXTS);
  const navigate = useNavigate();
  // A page about one line shows the line of the top bar: picking another line opens that line's
  // overview, picking another plant goes home (the top bar always shows the page's line).
  const isLinePage = pathname.startsWith("/lines/") || pathname.startsWith("/monitors/");
  const handlePlant = (id: string) => {
    setPlantId(id);
    if (isLinePage) navigate("/");
  };
  // On a page about one line, the line overview it opens takes the top bar with it (usePageLine),
  // so a navigation the page holds back (unsaved monitor edits) leaves the top bar as it was.
  const handleLine = (id: string) => {
    if (isLinePage) navigate(`/lines/${id}`);
    else setLineId(id);
  };
  // Narrower selects, no time zone and tighter gaps below the md breakpoint (900 px): the top bar
  // keeps its menus on a 768 px tablet.
  const selectSx = {
    minWidth: { xs: 120, md: 180 },
    maxWidth: { xs: 160, md: "none" },
    "& .MuiInputBase-root": { color: "inherit" },
    "& .MuiSelect-icon": { color: "inherit" },
  };
  return (
    <Box
      sx={{
        minHeight: "100vh",
        display: "flex",
        flexDirection: "column",
        bgcolor: (t) => (t.palette.mode === "dark" ? t.palette.background.default : t.palette.grey[50]),
      }}
    >
      <AppBar position="sticky" elevation={1}>
        <Toolbar sx={{ gap: { xs: 1, md: 2 } }}>
          <Typography
            variant="h6"
            component={RouterLink}
            to="/"
            sx={{ color: "inherit", textDecoration: "none", mr: { xs: 0, md: 2 } }}
          >
            {T.productName}
          </Typography>
          <TextField
            select
            size="small"
            variant="standard"
            label={T.plant}
            value={plant?.id ?? ""}
            onChange={(e) => handlePlant(e.target.value)}
            sx={selectSx}
            slotProps={{ inputLabel: { sx: { color: "inherit" } } }}
          >
            {plants.map((p) => (
              <MenuItem key={p.id} value={p.id}>
                {p.name}
              </MenuItem>
            ))}
          </TextField>
          <TextField
            select
            size="small"
            variant="standard"
            label={T.line}
            value={line?.id ?? ""}
            onChange={(e) => handleLine(e.target.value)}
            sx={selectSx}
            slotProps={{ inputLabel: { sx: { color: "inherit" } } }}
          >
            {lines.map((l) => (
              <MenuItem key={l.id} value={l.id}>
                {lineLabel(l)}
              </MenuItem>
            ))}
          </TextField>
          {plant && (
            <Typography
              variant="body2"
              sx={{ opacity: 0.85, display: { xs: "none", md: "block" } }}
              data-testid="plant-time-zone"
            >
              {plant.timeZone}
            </Typography>
          )}
          <Box sx={{ flexGrow: 1 }} />
          <Button
            color="inherit"
            component={RouterLink}
            to="/"
            aria-current={pathname === "/" ? "page" : undefined}
          >
            {T.home}
          </Button>
          <Button
            color="inherit"
            component={RouterLink}
            to="/settings"
            aria-current={pathname.startsWith("/settings") ? "page" : undefined}
          >
            {T.settings}
          </Button>
          <UserMenu />
        </Toolbar>
        <NavigationProgress />
      </AppBar>
      <Box component="main" sx={{ flexGrow: 1, p: { xs: 2, md: 3 }, minWidth: 0 }}>
        <Outlet />
      </Box>
    </Box>
  );
}
