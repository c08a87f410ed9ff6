import { APPEARANCE_TEXTS, APPEARANCES, AUDIT_TEXTS, featureFlagAccess } from "@linewatch/contracts";
import AccountCircle from "@mui/icons-material/AccountCircle";
import Check from "@mui/icons-material/Check";
import {
  Divider,
  IconButton,
  ListItemIcon,
  ListItemText,
  ListSubheader,
  Menu,
  MenuItem,
  TextField,
  Tooltip,
  Typography,
} from "@mui/material";
import { useState } from "react";
import { useNavigate } from "react-router";
import { canReadAuditLog } from "../features/audit-log/audit-log.access";
import { useLogout, useSwitchCustomer } from "../shared/data/session/mutations";
import { useCustomersForSwitch, useMe } from "../shared/data/session/queries";
import { useAppearance } from "../shared/ui/appearance";
import { useSnackbar } from "../shared/ui/SnackbarProvider";

/**
 * The user menu: email, location, customer switch (provider staff), feature flags (provider staff
 * switch them, administrators see them read-only), the audit log (administrators), the
 * appearance (follow the system, light, dark), sign out.
 */
export function UserMenu() {
  const me = useMe().data;
  const [anchor, setAnchor] = useState<HTMLElement | null>(null);
  const navigate = useNavigate();
  const logout = useLogout();
  const switchCustomer = useSwitchCustomer();
  const customers = useCustomersForSwitch(!!me?.isProviderStaff && anchor != null);
  const snackbar = useSnackbar();
  const appearance = useAppearance();
  if (!me) return null;
  const close = () => setAnchor(null);
  return (
    <>
      <Tooltip title={me.email}>
        <IconButton color="inherit" aria-label="User menu" onClick={(e) => setAnchor(e.currentTarget)}>
          <AccountCircle />
        </IconButton>
      </Tooltip>
      <Menu anchorEl={anchor} open={anchor != null} onClose={close} slotProps={{ list: { dense: true } }}>
        <MenuItem disabled sx={{ opacity: "1 !important" }}>
          <ListItemText primary={me.email} secondary={`Location: ${me.locationName ?? "Unassigned"}`} />
        </MenuItem>
        <MenuItem disabled sx={{ opacity: "1 !important" }}>
          <ListItemText primary="Customer" secondary={me.customer.name} />
        </MenuItem>
        {me.isProviderStaff && [
          <Divider key="d" />,
          // A menu holds menu items only: the heading is for the eye (role none, hidden).
          <ListSubheader key="h" role="none" aria-hidden>
            Act for customer
          </ListSubheader>,
          <MenuItem key="s" onKeyDown={(e) => e.stopPropagation()} disableRipple>
            <TextField
              select
              size="small"
              fullWidth
              label="Customer"
              value={customers.data?.some((c) => c.id === me.customer.id) ? me.customer.id : ""}
              slotProps={{ select: { native: true }, inputLabel: { shrink: true } }}
              onChange={(e) =>
                switchCustomer.mutate(e.target.value, {
                  onSuccess: (m) => {
                    close();
                    snackbar(`Now acting for ${m.customer.name}`);
                    navigate("/");
                  },
                  onError: (err) => snackbar(err.message, { severity: "error" }),
                })
              }
            >
              {customers.isLoading && <option value="">Loading…</option>}
              {customers.data?.map((c) => (
                <option key={c.id} value={c.id}>
                  {c.name}
                </option>
              ))}
            </TextField>
          </MenuItem>,
        ]}
        <Divider />
        {featureFlagAccess(me).canView && (
          <MenuItem
            onClick={() => {
              close();
              navigate("/feature-flags");
            }}
          >
            Feature flags
          </MenuItem>
        )}
        {canReadAuditLog(me) && (
          <MenuItem
            onClick={() => {
              close();
              navigate("/audit-log");
            }}
          >
            {AUDIT_TEXTS.menuItem}
          </MenuItem>
        )}
        {appearance && [
          <Divider key="appearance-divider" />,
          // For the eye; each item names it through aria-describedby.
          <ListSubheader key="appearance-heading" id="appearance-heading" role="none" aria-hidden>
            {APPEARANCE_TEXTS.heading}
          </ListSubheader>,
          ...APPEARANCES.map((a) => (
            <MenuItem
              key={a}
              role="menuitemradio"
              aria-checked={appearance.appearance === a}
              aria-describedby="appearance-heading"
              onClick={() => appearance.setAppearance(a)}
            >
              <ListItemIcon>{appearance.appearance === a && <Check fontSize="small" />}</ListItemIcon>
              {APPEARANCE_TEXTS.options[a]}
            </MenuItem>
          )),
          <Divider key="appearance-end" />,
        ]}
        <MenuItem
          onClick={() =>
            logout.mutate(undefined, {
              onSettled: () => {
                close();
                navigate("/login");
              },
            })
          }
        >
          <Typography>Sign out</Typography>
        </MenuItem>
      </Menu>
    </>
  );
}
