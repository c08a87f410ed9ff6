import { DRAWER, MONITOR_DETAILS_DRAWER_WIDTH, type TFormMonitorType } from "@linewatch/contracts";
import CloseIcon from "@mui/icons-material/Close";
import {
  Backdrop,
  Box,
  CircularProgress,
  Divider,
  Drawer,
  IconButton,
  Stack,
  Typography,
} from "@mui/material";
import { type ComponentProps, lazy, Suspense, useId } from "react";
import { MONITORS_ADMIN_TEXTS as T } from "../texts";

// The monitor form (date pickers, signal tree, rules) is a chunk of its own, loaded the first
// time the drawer opens, so the monitors pages show their grid without it. Until it is there a
// backdrop with a spinner stands where the drawer will slide in.
const MonitorForm = lazy(() =>
  import("../../../monitors/components/MonitorForm").then((m) => ({ default: m.MonitorForm })),
);
/** The drawer below, shown once the form's code is there. */
export function MonitorDetailsDrawer(p: ComponentProps<typeof DrawerWithForm>) {
  return (
    <Suspense
      fallback={
        <Backdrop open sx={{ zIndex: (theme) => theme.zIndex.drawer }}>
          <CircularProgress aria-label="Loading" sx={{ color: "common.white" }} />
        </Backdrop>
      }
    >
      <DrawerWithForm {...p} />
    </Suspense>
  );
}

/** What the drawer shows: a monitor in EDIT, or a new one on a line in CREATE. */
export type TMonitorDrawerTarget = { mode: "EDIT"; monitorId: string } | { mode: "CREATE"; lineId: string };

/**
 * The right-hand monitor details drawer, 750 px wide (requirements.md settings §2.7, §9), holding the monitor
 * form. A backdrop click does not close it, so a stray click cannot throw away an edit; Escape,
 * the close button and the form's own Cancel / Close do.
 */
function DrawerWithForm(p: {
  type: TFormMonitorType;
  open: boolean;
  /** Kept while the drawer slides out, so its content does not vanish mid-animation. */
  target: TMonitorDrawerTarget | null;
  onClose: () => void;
  onExited: () => void;
  onSaved?: (monitorId: string) => void;
}) {
  const titleId = useId();
  const t = p.target;
  return (
    <Drawer
      anchor="right"
      open={p.open}
      onClose={(_, reason) => reason !== "backdropClick" && p.onClose()}
      transitionDuration={{
        enter: DRAWER.enterMs,
        exit: DRAWER.exitMs,
      }}
      slotProps={{
        paper: {
          role: "dialog",
          "aria-labelledby": titleId,
          sx: { width: MONITOR_DETAILS_DRAWER_WIDTH, maxWidth: "100vw" },
        },
        transition: { onExited: p.onExited },
      }}
    >
      <Stack direction="row" sx={{ px: 2, py: 1.5, alignItems: "center" }}>
        <Typography id={titleId} variant="h6" component="h2" sx={{ flexGrow: 1 }}>
          {T.drawerTitle(p.type)}
        </Typography>
        <IconButton aria-label="Close" onClick={p.onClose}>
          <CloseIcon />
        </IconButton>
      </Stack>
      <Divider />
      <Box sx={{ flexGrow: 1, overflow: "auto", p: 2 }}>
        {t && (
          <MonitorForm
            // A fresh form for each monitor (and for each new one).
            key={t.mode === "EDIT" ? t.monitorId : `new-${t.lineId}`}
            type={p.type}
            mode={t.mode}
            monitorId={t.mode === "EDIT" ? t.monitorId : null}
            lineId={t.mode === "CREATE" ? t.lineId : undefined}
            onClose={p.onClose}
            onSaved={p.onSaved}
          />
        )}
      </Box>
    </Drawer>
  );
}
